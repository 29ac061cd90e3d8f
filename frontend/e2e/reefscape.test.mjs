// The current season page (docs/SPEC.md section 2, "Season page, current"):
// no header, 50 rising bubbles, a pinned logo, the two kickoff links, the
// safety animation heading and video (a poster offline), and a kickoff
// countdown that is kept but never shown.
import assert from 'node:assert/strict';
import { assertNoHeader, reducedMotion, saveScreenshot, viewports, wheel } from './harness.mjs';
import { test } from './fixtures.mjs';

const heading = 'Check out our 2025 season safety animation!';

test.describe('reefscape', () => {
  for (const [size, viewport] of Object.entries(viewports)) {
    test(`shows the season page at ${size} size`, async ({ site }) => {
      await site.open('/reefscape', viewport, async ({ page, errors }) => {
        await page.locator('.reef').waitFor();
        assert.equal(await page.title(), 'RoboHornets - Reefscape');

        // Season pages have no header, and the body says so.
        await assertNoHeader(page);

        assert.equal(await page.locator('.reef-bubble').count(), 50);
        assert.equal(await page.getByRole('heading', { level: 1, name: 'REEFSCAPE' }).count(), 1);
        await saveScreenshot(page, `reefscape-${size}`);

        // The pair of links: kickoff stream and game reveal, in a new tab.
        const links = page.locator('.reef-links a');
        assert.equal(await links.count(), 2);
        assert.match(await links.nth(0).innerText(), /kickoff stream/i);
        assert.match(await links.nth(1).innerText(), /game reveal/i);
        for (let i = 0; i < 2; i++) {
          const link = links.nth(i);
          assert.equal(await link.getAttribute('target'), '_blank');
          assert.deepEqual((await link.getAttribute('rel')).split(' ').sort(), [
            'noopener',
            'noreferrer',
          ]);
          assert.match(await link.getAttribute('href'), /^https:\/\//);
        }

        // The logo stays put while the page scrolls under it (it may shrink
        // and turn as it goes, so compare its centre).
        const logo = page.locator('.reef-logo');
        const centre = async () => {
          const box = await logo.boundingBox();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        };
        const before = await centre();
        await wheel(page, 500);
        assert.ok((await page.evaluate(() => window.scrollY)) >= 400);
        const after = await centre();
        assert.ok(Math.abs(after.y - before.y) < 1, `logo moved from ${before.y} to ${after.y}`);
        assert.ok(Math.abs(after.x - before.x) < 1, `logo moved from ${before.x} to ${after.x}`);

        // The safety animation: exact heading, then the no-cookie player.
        const h2 = page.getByRole('heading', { level: 2, name: heading, exact: true });
        await h2.scrollIntoViewIfNeeded();
        assert.equal(await h2.innerText(), heading);
        const frame = page.locator('.reef-video iframe');
        assert.equal(await frame.count(), 1);
        await page.locator('.reef-video-frame').scrollIntoViewIfNeeded();
        assert.match(
          await frame.getAttribute('src'),
          /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+/,
        );
        assert.equal(await frame.getAttribute('loading'), 'lazy');
        assert.ok((await frame.getAttribute('title')).length > 0);
        await saveScreenshot(page, `reefscape-${size}-video`);

        // The kickoff countdown (January 4, 2025 12:00 EST) is computed but not shown.
        const kickoff = await page.locator('.reef').getAttribute('data-kickoff-seconds');
        assert.match(kickoff, /^\d+$/);
        const text = await page.locator('main').innerText();
        assert.doesNotMatch(text, /\d+\s*(days?|hours?|minutes?|seconds?)\b/i);

        assert.deepEqual(errors, []);
      });
    });
  }

  test('shows the poster instead of the video while offline', async ({ site }) => {
    await site.open('/reefscape', viewports.desktop, async ({ page, context, errors }) => {
      await page.locator('.reef-video iframe').waitFor({ state: 'attached' });
      await context.setOffline(true);
      const poster = page.locator('.reef-poster');
      await poster.waitFor();
      assert.equal(await page.locator('.reef-video iframe').count(), 0);
      assert.equal(await page.getByRole('img', { name: /safety animation/i }).count(), 1);
      await poster.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'reefscape-desktop-offline');
      await context.setOffline(false);
      await page.locator('.reef-video iframe').waitFor({ state: 'attached' });
      assert.deepEqual(
        errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e)),
        [],
      );
    });
  });

  test('holds the bubbles still for reduced motion', async ({ site }) => {
    await site.open('/reefscape', viewports.phone, reducedMotion, async ({ page }) => {
      await page.locator('.reef-bubble').first().waitFor({ state: 'attached' });
      const names = await page.$$eval('.reef-bubble-track, .reef-bubble', (els) => [
        ...new Set(els.map((el) => getComputedStyle(el).animationName)),
      ]);
      assert.deepEqual(names, ['none']);
      assert.equal(await page.locator('.reef-bubble').count(), 50);
    });
  });
});
