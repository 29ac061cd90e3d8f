// The three small pages: Sponsors (a parallax banner titled NEWS, as the spec
// shows it), Outreach (the placeholder 'outreach works!') and Donate.
import assert from 'node:assert/strict';
import { saveScreenshot, scrollWindowTo, viewports } from './harness.mjs';
import { expect, test } from './fixtures.mjs';

test.describe('sponsors, outreach and donate pages', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    test(`sponsors is a parallax banner titled NEWS only, at ${name} size`, async ({ site }) => {
      await site.open('/sponsors', viewport, async ({ page, errors }) => {
        assert.equal(await page.title(), 'RoboHornets - Sponsors');
        assert.ok(await page.getByRole('heading', { level: 1, name: 'NEWS' }).isVisible());
        const children = await page.evaluate(() =>
          Array.from(document.querySelector('main').children, (el) => el.className),
        );
        assert.equal(children.length, 1);
        assert.match(children[0], /\bbanner\b/);
        assert.equal(await page.locator('main h2').count(), 0);

        if (name === 'desktop') {
          // Scroll the page (the footer makes room) and the banner layer follows at half speed.
          await scrollWindowTo(page, 200);
          const scroll = await page.evaluate(() => window.scrollY);
          if (scroll > 0) {
            // The layer follows within its throttle.
            await expect(async () => {
              const y = await page
                .locator('.carousel__layer')
                .evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m42);
              assert.ok(Math.abs(y - scroll * 0.5) <= 1, `layer moved ${y}px for ${scroll}px`);
            }, 'the banner layer follows the scroll at half speed').toPass();
          }
          await scrollWindowTo(page, 0);
        }

        await saveScreenshot(page, `sponsors-${name}`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });

    test(`outreach shows its placeholder at ${name} size`, async ({ site }) => {
      await site.open('/outreach', viewport, async ({ page, errors }) => {
        assert.equal(await page.title(), 'RoboHornets - Outreach');
        // Only the placeholder is visible (the page's h1 is for screen readers).
        const visible = await page.evaluate(() => {
          const main = document.querySelector('main').cloneNode(true);
          main.querySelectorAll('.visually-hidden').forEach((el) => el.remove());
          return main.textContent.trim();
        });
        assert.equal(visible, 'outreach works!');
        assert.ok(await page.getByText('outreach works!', { exact: true }).isVisible());
        await saveScreenshot(page, `outreach-${name}`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });

    test(`donate explains how to support the team at ${name} size`, async ({ site }) => {
      await site.open('/donate', viewport, async ({ page, errors }) => {
        assert.equal(await page.title(), 'RoboHornets - Donate');
        assert.ok(await page.getByRole('heading', { level: 1 }).isVisible());
        assert.ok(await page.getByRole('heading', { name: 'Support the RoboHornets' }).isVisible());
        assert.ok((await page.locator('main .card').count()) >= 3);
        const email = page.locator('main').getByRole('link', { name: '{email}' });
        assert.equal(await email.getAttribute('href'), 'mailto:{email}');
        const button = page.getByRole('link', { name: 'Email Us' });
        assert.equal(await button.getAttribute('href'), 'mailto:{email}');
        await saveScreenshot(page, `donate-${name}`);
        await saveScreenshot(page, `donate-${name}-full`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });
  }

  test('the footer links to Donate', async ({ site }) => {
    await site.open('/', viewports.desktop, async ({ page }) => {
      await page
        .getByRole('navigation', { name: 'Sitemap' })
        .getByRole('link', { name: 'Donate' })
        .click();
      await page.waitForURL((u) => u.pathname === '/donate');
      // The title follows once the page has rendered.
      await page.waitForFunction(() => document.title === 'RoboHornets - Donate');
      assert.equal(await page.title(), 'RoboHornets - Donate');
    });
  });
});
