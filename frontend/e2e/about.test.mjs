// The About page (docs/SPEC.md section 2, "About").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPage, screenshotDir, startSite, stopSite, viewports } from './harness.mjs';

describe('about page', () => {
  let server;
  let browser;
  before(async () => ({ server, browser } = await startSite()));
  after(() => stopSite({ server, browser }));

  for (const [name, viewport] of Object.entries(viewports)) {
    it(`tells the team's story at ${name} size`, async () => {
      const { page, context, errors } = await openPage(browser, server, '/about', viewport);
      try {
        assert.equal(await page.title(), 'RoboHornets - About');
        assert.ok(
          await page.getByRole('heading', { level: 1, name: 'ABOUT US' }).isVisible(),
          'banner titled ABOUT US',
        );
        assert.equal(await page.locator('.banner [aria-roledescription="carousel"]').count(), 1);

        const text = await page.locator('main').innerText();
        assert.match(text, /founded in 2002 as a way to increase STEM involvement/);
        assert.match(text, /a school without shop classes/);
        assert.match(text, /Build season starts in early January at the kickoff/);
        assert.match(text, /lasts six weeks/);
        assert.match(text, /meets Monday, Wednesday and Saturday at the University of Tulsa/);
        assert.match(text, /competes at the Shawnee and Tulsa regionals/);

        const current = page.locator('nav[aria-label="Main"] a[aria-current="page"]');
        assert.deepEqual(await current.allTextContents(), ['About']);

        await page.screenshot({ path: `${screenshotDir}about-${name}.png` });
        await page.screenshot({ path: `${screenshotDir}about-${name}-full.png`, fullPage: true });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
