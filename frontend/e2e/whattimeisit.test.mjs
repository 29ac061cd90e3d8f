// The countdown page (docs/SPEC.md sections 2 and 4): the current time as
// HH:mm:ss, the target and the debug state; a circular countdown in whole
// seconds before the target; 'What time is it?' with confetti after it.
// Debug mode is on by default, so the target is 10 s after load.
import assert from 'node:assert/strict';
import {
  animationsDone,
  clockIn,
  frames,
  reducedMotion,
  saveScreenshot,
  viewports,
} from './harness.mjs';
import { expect, test } from './fixtures.mjs';

const hms = /^\d{2}:\d{2}:\d{2}$/;
const zone = 'America/Chicago';

/** Counts the painted pixels of the confetti canvas. */
const paintedPixels = (page) =>
  page.locator('canvas.wtii-confetti').evaluate((canvas) => {
    if (!canvas.width || !canvas.height) return 0;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
    return n;
  });

test.describe('whattimeisit', () => {
  /** Opens the countdown with query, in the team's time zone, and runs test on it. */
  const withCountdown = (site, query, viewport, check, options = {}) =>
    site.open(`/whattimeisit${query}`, viewport, { timezoneId: zone, ...options }, check);

  for (const [size, viewport] of Object.entries(viewports)) {
    test(`counts down 10 s in debug mode, then celebrates, at ${size} size`, async ({ site }) => {
      await withCountdown(site, '', viewport, async ({ page, errors }) => {
        const stage = page.locator('section.wtii');
        await stage.waitFor();
        assert.equal(await page.title(), 'RoboHornets - What time is it?');
        assert.equal(await page.locator('canvas.wtii-confetti').count(), 1);

        // Clock, target and debug state.
        assert.match(await page.locator('.wtii-clock').innerText(), hms);
        assert.match(await page.locator('.wtii-facts time').innerText(), hms);
        assert.equal(await page.locator('.wtii-debug').innerText(), 'ON');

        // The countdown ring, in whole seconds, at most 10 (plus the rounding to a second).
        assert.equal(await stage.getAttribute('data-phase'), 'counting');
        const timer = page.getByRole('timer');
        assert.equal(await timer.isVisible(), true);
        const left = Number(await page.locator('.wtii-seconds-value').innerText());
        assert.ok(Number.isInteger(left) && left >= 1 && left <= 11, `seconds left: ${left}`);
        assert.equal(await page.locator('.wtii-ring-svg circle').count(), 2);

        // The clock ticks.
        const first = await page.locator('.wtii-clock').innerText();
        await page.waitForFunction(
          (t) => document.querySelector('.wtii-clock').textContent !== t,
          first,
          { timeout: 3000 },
        );

        // The live region announces rarely and is not the ticking clock.
        const live = page.locator('[aria-live="polite"]');
        assert.equal(await live.count(), 1);
        assert.match(await live.innerText(), /minute/);
        await saveScreenshot(page, `whattimeisit-${size}`);

        // About ten seconds after load: the celebration and the confetti.
        const title = page.getByRole('heading', { level: 1, name: 'What time is it?' });
        await title.waitFor({ timeout: 15_000 });
        assert.equal(await stage.getAttribute('data-phase'), 'celebrating');
        assert.equal(await page.getByRole('timer').count(), 0);
        assert.match(await live.innerText(), /What time is it\?/);
        await expect
          .poll(() => paintedPixels(page), { message: 'confetti on the canvas', timeout: 3000 })
          .toBeGreaterThan(0);
        // The title has popped in.
        await animationsDone(page.locator('.wtii-party'));
        await saveScreenshot(page, `whattimeisit-${size}-party`);

        assert.deepEqual(errors, []);
      });
    });
  }

  test('shows debug mode OFF and the 12:09 target with ?debug=off', async ({ site }) => {
    await withCountdown(site, '?debug=off', viewports.desktop, async ({ page, errors }) => {
      await page.locator('section.wtii').waitFor();
      assert.equal(await page.locator('.wtii-debug').innerText(), 'OFF');
      assert.equal(await page.locator('.wtii-facts time').innerText(), '12:09:00');
      assert.equal(await page.locator('section.wtii').getAttribute('data-phase'), 'counting');
      assert.equal(await page.getByRole('timer').isVisible(), true);
      await saveScreenshot(page, 'whattimeisit-desktop-debug-off');
      assert.deepEqual(errors, []);
    });
  });

  test('takes the time of day from ?at=HH:MM:SS', async ({ site }) => {
    const at = clockIn(zone, 5);
    await withCountdown(site, `?debug=off&at=${at}`, viewports.phone, async ({ page, errors }) => {
      await page.locator('section.wtii').waitFor();
      assert.equal(await page.locator('.wtii-debug').innerText(), 'OFF');
      assert.equal(await page.locator('.wtii-facts time').innerText(), at);
      await page
        .getByRole('heading', { level: 1, name: 'What time is it?' })
        .waitFor({ timeout: 12_000 });
      assert.deepEqual(errors, []);
    });
  });

  test('shows the clock of the zone in ?tz=, whatever the device says', async ({ site }) => {
    const tz = 'Asia/Tokyo';
    await withCountdown(
      site,
      `?debug=off&tz=${tz}`,
      viewports.desktop,
      async ({ page, errors }) => {
        await page.locator('section.wtii').waitFor();
        assert.equal(await page.locator('.wtii-facts time').innerText(), '12:09:00');
        const tokyo = new Intl.DateTimeFormat('en-GB', {
          timeZone: tz,
          hour: '2-digit',
          hourCycle: 'h23',
        });
        const shown = (await page.locator('.wtii-clock').innerText()).slice(0, 2);
        const hours = [Date.now() - 2000, Date.now()].map((ms) => tokyo.format(ms));
        assert.ok(hours.includes(shown), `clock shows hour ${shown}, Tokyo is at ${hours}`);
        assert.deepEqual(errors, []);
      },
    );
  });

  test('celebrates without confetti for reduced motion', async ({ site }) => {
    await withCountdown(
      site,
      '',
      viewports.desktop,
      async ({ page }) => {
        await page
          .getByRole('heading', { level: 1, name: 'What time is it?' })
          .waitFor({ timeout: 15_000 });
        // Confetti would have been fired with the party's first render and
        // painted in the frame after: wait for the clock's next tick to be
        // rendered, then for two more frames.
        const clock = page.locator('time.wtii-clock');
        const partyStarted = await clock.getAttribute('datetime');
        await page.waitForFunction(
          (before) =>
            document.querySelector('time.wtii-clock')?.getAttribute('datetime') !== before,
          partyStarted,
        );
        await frames(page);
        assert.equal(await paintedPixels(page), 0);
      },
      reducedMotion,
    );
  });
});
