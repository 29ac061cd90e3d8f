// The past season page (docs/SPEC.md section 2, "Past season page"): no header,
// the 2024 challenge, the robot's facts (weight labelled 'Dimensions', as the
// team's page has it) and the expanding circles (at most 4, each for 8 s).
import assert from 'node:assert/strict';
import { assertNoHeader, frames, reducedMotion, saveScreenshot, viewports } from './harness.mjs';
import { test } from './fixtures.mjs';

test.describe('crescendo', () => {
  for (const [size, viewport] of Object.entries(viewports)) {
    test(`shows the 2024 season and its robot at ${size} size`, async ({ site }) => {
      await site.open('/crescendo', viewport, async ({ page, errors }) => {
        await page.locator('.cres').waitFor();
        assert.equal(await page.title(), 'RoboHornets - Crescendo');
        await assertNoHeader(page);

        assert.equal(await page.getByRole('heading', { level: 1, name: 'CRESCENDO' }).count(), 1);
        assert.equal(await page.getByRole('heading', { name: 'The 2024 challenge' }).count(), 1);

        // The robot and its facts, exactly as the spec words them.
        const robot = page.locator('.cres-robot');
        assert.equal(await robot.getByRole('heading', { name: 'Java the Hutt' }).count(), 1);
        const facts = await robot
          .locator('.cres-fact')
          .evaluateAll((els) =>
            els.map((el) => [
              el.querySelector('dt').textContent.trim(),
              el.querySelector('dd').textContent.trim(),
            ]),
          );
        assert.deepEqual(facts, [
          ['Dimensions', '91 lbs'],
          ['Drive', 'Swerve drive'],
          ['Size', '22x22x25 inches without bumpers'],
        ]);

        // The circles: one every 500 ms up to four, never more. The page
        // records the most it has had at once from now on.
        await page.evaluate(() => {
          const count = () => document.querySelectorAll('.cres-circle').length;
          window.__mostCircles = count();
          new MutationObserver(() => {
            window.__mostCircles = Math.max(window.__mostCircles, count());
          }).observe(document.querySelector('.cres'), { childList: true, subtree: true });
        });
        await page.waitForFunction(
          () => document.querySelectorAll('.cres-circle').length === 4,
          null,
          {
            timeout: 5000,
          },
        );
        // A fifth would come 500 ms after the fourth: wait until the
        // document's timeline has run 700 ms past the moment four were
        // seen. The timeline moves with every frame the page renders; an
        // animation's own time stays unset while it waits for its first
        // frame, which on 2 cores shared with the Go lane came too late
        // (the youngest circle's time was tried: it failed in CI at 15 s).
        await page.evaluate(() => {
          window.__fourAt = document.timeline.currentTime;
        });
        await page.waitForFunction(
          () => document.timeline.currentTime - window.__fourAt >= 700,
          null,
          { timeout: 15_000 },
        );
        assert.equal(await page.evaluate(() => window.__mostCircles), 4);
        // Read in one step: a circle found, then read later, may have ended
        // and left the page in between (its style then reads '').
        const duration = await page.evaluate(
          () => getComputedStyle(document.querySelector('.cres-circle')).animationDuration,
        );
        assert.equal(duration, '8s');
        await saveScreenshot(page, `crescendo-${size}`);
        await robot.scrollIntoViewIfNeeded();
        await saveScreenshot(page, `crescendo-${size}-robot`);

        assert.deepEqual(errors, []);
      });
    });
  }

  test('replaces each circle after its lifetime', async ({ site }) => {
    await site.open('/crescendo', viewports.desktop, async ({ page }) => {
      await page.locator('.cres-circle').first().waitFor({ state: 'attached' });
      // Tag the circles alive now; after their 8 s they must all be gone.
      await page.$$eval('.cres-circle', (els) => els.forEach((el) => el.classList.add('old')));
      await page.waitForFunction(
        () => document.querySelectorAll('.cres-circle.old').length === 0,
        null,
        {
          timeout: 12_000,
        },
      );
      assert.ok((await page.locator('.cres-circle').count()) >= 1);
    });
  });

  test('shows no circles for reduced motion', async ({ site }) => {
    await site.open('/crescendo', viewports.phone, reducedMotion, async ({ page }) => {
      await page.locator('.cres').waitFor();
      // With motion, the first circle comes with the page's first render
      // (then one every 500 ms): two painted frames later it would be here.
      await frames(page);
      assert.equal(await page.locator('.cres-circle').count(), 0);
      assert.equal((await page.getByText('Java the Hutt').count()) > 0, true);
    });
  });
});
