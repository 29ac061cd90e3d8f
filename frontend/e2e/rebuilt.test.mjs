// The scroll-driven page (docs/SPEC.md section 2, "Scroll-driven page"): four
// stacked coloured sections of 50vh, 50vh, 50vh and 100vh with wavy clip
// paths that move with the scroll, a wave-shaped reveal, a fixed overlay
// image, a fossil image and a solid gold background.
import assert from 'node:assert/strict';
import {
  assertNoHeader,
  reducedMotion,
  saveScreenshot,
  scrollWindowTo,
  viewports,
  wheel,
} from './harness.mjs';
import { test } from './fixtures.mjs';

const clips = (page) =>
  page.$$eval('.rebuilt-band', (els) => els.map((el) => getComputedStyle(el).clipPath));

test.describe('rebuilt', () => {
  for (const [size, viewport] of Object.entries(viewports)) {
    test(`stacks four wavy sections on gold at ${size} size`, async ({ site }) => {
      await site.open('/rebuilt', viewport, async ({ page, errors }) => {
        await page.locator('.rebuilt-band').first().waitFor();
        assert.equal(await page.title(), 'RoboHornets - Rebuilt');
        await assertNoHeader(page);

        // Four <section>s, 50vh, 50vh, 50vh and 100vh, each with its own colour.
        const bands = await page.$$eval('.rebuilt-band', (els) =>
          els.map((el) => ({
            tag: el.tagName,
            height: el.getBoundingClientRect().height,
            colour: getComputedStyle(el).backgroundColor,
          })),
        );
        assert.deepEqual(
          bands.map((b) => b.tag),
          ['SECTION', 'SECTION', 'SECTION', 'SECTION'],
        );
        const vh = viewport.height / 100;
        [50, 50, 50, 100].forEach((want, i) =>
          assert.ok(
            Math.abs(bands[i].height - want * vh) < 1,
            `section ${i + 1}: ${bands[i].height}px`,
          ),
        );
        assert.equal(new Set(bands.map((b) => b.colour)).size, 4);
        assert.ok(bands.every((b) => b.colour !== 'rgba(0, 0, 0, 0)'));

        // A solid gold background behind them.
        assert.equal(
          await page.locator('.rebuilt').evaluate((el) => getComputedStyle(el).backgroundColor),
          'rgb(245, 183, 0)',
        );

        // Wavy clip paths that move as the page scrolls.
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.rebuilt-band')].every((el) =>
            getComputedStyle(el).clipPath.startsWith('path('),
          ),
        );
        const atTop = await clips(page);
        assert.equal(atTop.length, 4);
        await saveScreenshot(page, `rebuilt-${size}`);

        // The reveal: nothing of it shows at the top, all of it at the bottom.
        const band4 = page.locator('.rebuilt-band--4');
        assert.equal(await band4.getAttribute('data-reveal'), '0.00');
        await page.mouse.wheel(0, viewport.height * 0.6);
        await page.waitForFunction((before) => {
          const now = [...document.querySelectorAll('.rebuilt-band')].map(
            (el) => getComputedStyle(el).clipPath,
          );
          return now.every((c, i) => c !== before[i]);
        }, atTop);
        await saveScreenshot(page, `rebuilt-${size}-scrolled`);

        const revealed = () =>
          document.querySelector('.rebuilt-band--4').getAttribute('data-reveal') === '1.00';
        await scrollWindowTo(
          page,
          await page.evaluate(() => document.documentElement.scrollHeight),
        );
        await page.waitForFunction(revealed);
        await scrollWindowTo(page, await band4.evaluate((el) => el.offsetTop));
        await page.waitForFunction(revealed);
        assert.match(
          await page.locator('.rebuilt-reveal').evaluate((el) => getComputedStyle(el).clipPath),
          /^path\(/,
        );

        // The fossil image and the fixed overlay image.
        assert.equal(await page.getByRole('img', { name: /fossil/i }).isVisible(), true);
        const overlay = page.locator('.rebuilt-overlay');
        assert.equal(await overlay.evaluate((el) => getComputedStyle(el).position), 'fixed');
        assert.equal(await overlay.isVisible(), true);
        await saveScreenshot(page, `rebuilt-${size}-fossil`);

        assert.deepEqual(errors, []);
      });
    });
  }

  test('holds the waves still and shows the fossil for reduced motion', async ({ site }) => {
    await site.open('/rebuilt', viewports.desktop, reducedMotion, async ({ page }) => {
      await page.waitForFunction(() =>
        getComputedStyle(document.querySelector('.rebuilt-band')).clipPath.startsWith('path('),
      );
      assert.equal(await page.locator('.rebuilt-band--4').getAttribute('data-reveal'), '1.00');
      const before = await clips(page);
      // The scroll has ended and been painted: moving waves would have moved by now.
      await wheel(page, 700);
      assert.ok((await page.evaluate(() => window.scrollY)) >= 600);
      assert.deepEqual(await clips(page), before);
    });
  });
});
