// Every full-screen page fits any screen: on /whattimeisit and /pit the site
// header and the whole full-screen part lie inside the first viewport at
// every size of the harness's screens (TV, laptop, portrait, small and the
// window's default), and nothing scrolls sideways. The site footer may follow below. The main
// text is readable from 3 m on a 720p TV and grows with the screen.
import assert from 'node:assert/strict';
import {
  animationsDone,
  assertFits,
  openPage,
  saveScreenshot,
  screens,
  viewportName,
} from './harness.mjs';
import { startPitSite, stopPitSite } from './replay.mjs';
import { expect, ownSite } from './fixtures.mjs';

const test = ownSite(startPitSite, stopPitSite);

const zone = 'America/Chicago';
const hms = /^\d{2}:\d{2}:\d{2}$/;

/** The computed font size in px of the first element matching selector. */
const fontSize = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

test.describe('full-screen pages fit the first screen', () => {
  /**
   * Opens /whattimeisit (debug on: the target is 10 s away) on a clock that
   * stands still until the test moves it, so that a slow load or a slow
   * measurement never runs the countdown out, and waits for the clock.
   * Returns what openPage does and start, the time the clock stands at.
   */
  async function openCountdown(site, viewport) {
    const start = Date.now();
    const opened = await openPage(
      site.browser,
      site.server,
      '/whattimeisit',
      viewport,
      { timezoneId: zone },
      async (context) => {
        await context.clock.setFixedTime(start);
        // The page follows the server's clock (GET /api/time): make the server agree.
        await context.route('**/api/time', (route) => route.fulfill({ json: { now: start } }));
      },
    );
    const { page } = opened;
    await page.locator('section.wtii[data-phase="counting"] .wtii-seconds-value').waitFor();
    await page.waitForFunction(
      (re) => new RegExp(re).test(document.querySelector('.wtii-clock')?.textContent ?? ''),
      hms.source,
    );
    return { ...opened, start };
  }

  /** Opens /pit and waits for the next match and its countdown. */
  async function openPit(site, viewport) {
    const opened = await openPage(site.browser, site.server, '/pit', viewport);
    await opened.page.getByRole('timer').waitFor();
    return opened;
  }

  // The pages of one page type load side by side.
  test.describe('/whattimeisit, counting down and then celebrating', () => {
    test.describe.configure({ mode: 'parallel' });
    for (const viewport of Object.values(screens)) {
      test(`fits ${viewportName(viewport)}`, async ({ site }) => {
        const { page, context, errors, start } = await openCountdown(site, viewport);
        try {
          for (const selector of ['.wtii-clock', '.wtii-ring', '.wtii-facts', '.wtii-debug']) {
            assert.equal(await page.locator(selector).isVisible(), true, selector);
          }
          await assertFits(page, '/whattimeisit counting');
          await saveScreenshot(page, `fit-whattimeisit-${viewportName(viewport)}`);

          // The target comes: the party begins.
          await page.clock.setFixedTime(start + 11_000);
          const title = page.getByRole('heading', { level: 1, name: 'What time is it?' });
          await title.waitFor();
          assert.equal(
            await page.locator('section.wtii').getAttribute('data-phase'),
            'celebrating',
          );
          // The title pops in; measure it at its full size.
          await animationsDone(title);
          await assertFits(page, '/whattimeisit celebrating');
          await saveScreenshot(page, `fit-whattimeisit-${viewportName(viewport)}-party`);
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      });
    }
  });

  test.describe('/pit', () => {
    test.describe.configure({ mode: 'parallel' });
    for (const viewport of Object.values(screens)) {
      test(`fits ${viewportName(viewport)}`, async ({ site }) => {
        const { page, context } = await openPit(site, viewport);
        try {
          await assertFits(page, '/pit');
          await saveScreenshot(page, `fit-pit-${viewportName(viewport)}`);
        } finally {
          await context.close();
        }
      });
    }
  });

  // 48 px is 1/15 of a 720p screen's height: about 6 cm tall on a 40-inch TV,
  // easy to read from 3 m.
  const readable = 48;
  const { tv720, hd, uhd } = screens;

  /**
   * Opens a page with open(site, viewport) at 720p, 1080p and 4K and measures the font size
   * (px) of each of selectors (by key), once ready(page) resolves; asserts
   * each is readable across the room at 720p and grows from 1080p to 4K.
   */
  async function assertSizedForTV(site, open, selectors, ready = async () => {}) {
    const px = {};
    for (const viewport of [tv720, hd, uhd]) {
      const { page, context } = await open(site, viewport);
      try {
        await ready(page);
        const measured = {};
        for (const [key, selector] of Object.entries(selectors)) {
          measured[key] = await fontSize(page, selector);
        }
        px[viewportName(viewport)] = measured;
      } finally {
        await context.close();
      }
    }
    const at = (v) => px[viewportName(v)];
    const sizesText = JSON.stringify(px);
    for (const key of Object.keys(selectors)) {
      assert.ok(
        at(tv720)[key] >= readable,
        `${key} at 1280×720 under ${readable} px: ${sizesText}`,
      );
      assert.ok(at(uhd)[key] > at(hd)[key], `${key} does not grow from 1080p to 4K: ${sizesText}`);
    }
  }

  test('sizes the countdown for a TV across the room, and larger on a larger screen', ({ site }) =>
    assertSizedForTV(site, openCountdown, {
      clock: '.wtii-clock',
      seconds: '.wtii-seconds-value',
    }));

  test('sizes the pit’s next match for a TV across the room, and larger on a larger screen', ({
    site,
  }) =>
    assertSizedForTV(
      site,
      openPit,
      { label: '.pit-hero__label', countdown: '.pit-countdown' },
      (page) =>
        expect(page.locator('.pit-hero__label'), 'the next match label').not.toHaveCount(0, {
          timeout: 5000,
        }),
    ));
});
