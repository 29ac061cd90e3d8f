// The About page (docs/SPEC.md section 2, "About").
import assert from 'node:assert/strict';
import { saveScreenshot, viewports } from './harness.mjs';
import { test } from './fixtures.mjs';

test.describe('about page', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    test(`tells the team's story at ${name} size`, async ({ site }) => {
      await site.open('/about', viewport, async ({ page, errors }) => {
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

        await saveScreenshot(page, `about-${name}`);
        await saveScreenshot(page, `about-${name}-full`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });
  }
});
