// Every full-screen page fits any screen: on /whattimeisit and /pit the site
// header and the whole full-screen part lie inside the first viewport at the
// TV, laptop, portrait and small sizes below and the window's default size,
// and nothing scrolls sideways. The site footer may follow below. The main
// text is readable from 3 m on a 720p TV and grows with the screen.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, screenshotDir, startServer } from './harness.mjs';
import { startReplay } from './replay.mjs';

/** The sizes every full-screen page must fit, the desktop window's default among them. */
const sizes = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
  { width: 1080, height: 1920 },
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
];

const name = ({ width, height }) => `${width}x${height}`;
const zone = 'America/Chicago';
const hms = /^\d{2}:\d{2}:\d{2}$/;

/**
 * Runs in the page: every element of the site header and of <main> that the
 * user can see (a non-empty box, not hidden, not in a transparent subtree,
 * not in the site footer) whose box leaves [0, innerWidth]×[0, innerHeight]
 * by more than 1 px, or the box of an ancestor that hides its overflow (cut
 * off), as "tag.class left,top–right,bottom", and a sideways scroll if there
 * is one.
 */
function offscreen() {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const tolerance = 1;
  const roots = [document.querySelector('.site-header'), document.querySelector('main')];
  const seen = new Set();
  const out = [];
  const describe = (el) => {
    const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
    return `${el.tagName.toLowerCase()}${cls ? `.${cls.trim().split(/\s+/).join('.')}` : ''}`;
  };
  const shown = (el) => {
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    }
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.opacity === '0') return false;
    }
    return getComputedStyle(el).visibility !== 'hidden';
  };
  for (const root of roots) {
    if (!root) continue;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (seen.has(el)) continue;
      seen.add(el);
      if (el.closest('.site-footer')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !shown(el)) continue;
      const px = (n) => Math.round(n);
      const box = `${px(r.left)},${px(r.top)}–${px(r.right)},${px(r.bottom)}`;
      if (
        r.left < -tolerance ||
        r.top < -tolerance ||
        r.right > vw + tolerance ||
        r.bottom > vh + tolerance
      ) {
        out.push(`${describe(el)} ${box}`);
        continue;
      }
      // Inside the screen but cut off by a panel that hides its overflow
      // (fixed boxes, like the confetti canvas, escape their ancestors').
      if (getComputedStyle(el).position === 'fixed') continue;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const c = a.getBoundingClientRect();
          if (
            r.left < c.left - tolerance ||
            r.top < c.top - tolerance ||
            r.right > c.right + tolerance ||
            r.bottom > c.bottom + tolerance
          ) {
            out.push(`${describe(el)} ${box} cut off by ${describe(a)}`);
            break;
          }
        }
        if (s.position === 'fixed') break;
      }
    }
  }
  const sw = document.documentElement.scrollWidth;
  if (sw > vw) out.push(`scrolls sideways: scrollWidth ${sw} > innerWidth ${vw}`);
  return out;
}

/** Asserts the page fits its viewport; the message lists the offenders. */
async function assertFits(page, what) {
  const out = await page.evaluate(offscreen);
  const { width, height } = page.viewportSize();
  assert.deepEqual(
    out,
    [],
    `${what} at ${width}×${height}: ${out.length} element(s) outside the first screen:\n  ${out.join('\n  ')}`,
  );
}

/** The computed font size in px of the first element matching selector. */
const fontSize = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

/** Polls fn until it returns a truthy value, or fails after timeoutMs. */
async function eventually(what, fn, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

describe('full-screen pages fit the first screen', () => {
  let upstream;
  let server;
  let browser;
  before(async () => {
    upstream = await startReplay({ timeline: 'demo' });
    server = await startServer({
      extraArgs: ['--event', '2026demo', ...upstream.args],
      env: upstream.env,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.stop();
  });

  /** Opens /whattimeisit (debug on: the target is 10 s away) and waits for the clock. */
  async function openCountdown(viewport) {
    const opened = await openPage(browser, server, '/whattimeisit', viewport, {
      timezoneId: zone,
    });
    const { page } = opened;
    await page.locator('section.wtii[data-phase="counting"] .wtii-seconds-value').waitFor();
    await page.waitForFunction(
      (re) => new RegExp(re).test(document.querySelector('.wtii-clock')?.textContent ?? ''),
      hms.source,
    );
    return opened;
  }

  /** Opens /pit and waits for the next match and its countdown. */
  async function openPit(viewport) {
    const opened = await openPage(browser, server, '/pit', viewport);
    await opened.page.getByRole('timer').waitFor();
    return opened;
  }

  // The pages of one page type load side by side, so the ten seconds of
  // countdown pass once for all sizes.
  describe('/whattimeisit, counting down and then celebrating', { concurrency: true }, () => {
    for (const viewport of sizes) {
      it(`fits ${name(viewport)}`, async () => {
        const { page, context, errors } = await openCountdown(viewport);
        try {
          for (const selector of ['.wtii-clock', '.wtii-ring', '.wtii-facts', '.wtii-debug']) {
            assert.equal(await page.locator(selector).isVisible(), true, selector);
          }
          await assertFits(page, '/whattimeisit counting');
          await page.screenshot({
            path: join(screenshotDir, `fit-whattimeisit-${name(viewport)}.png`),
          });

          const title = page.getByRole('heading', { level: 1, name: 'What time is it?' });
          await title.waitFor({ timeout: 15_000 });
          assert.equal(
            await page.locator('section.wtii').getAttribute('data-phase'),
            'celebrating',
          );
          // The title pops in for 0.6 s; measure it at its full size.
          await page.waitForTimeout(800);
          await assertFits(page, '/whattimeisit celebrating');
          await page.screenshot({
            path: join(screenshotDir, `fit-whattimeisit-${name(viewport)}-party.png`),
          });
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      });
    }
  });

  describe('/pit', { concurrency: true }, () => {
    for (const viewport of sizes) {
      it(`fits ${name(viewport)}`, async () => {
        const { page, context } = await openPit(viewport);
        try {
          await assertFits(page, '/pit');
          await page.screenshot({ path: join(screenshotDir, `fit-pit-${name(viewport)}.png`) });
        } finally {
          await context.close();
        }
      });
    }
  });

  // 48 px is 1/15 of a 720p screen's height: about 6 cm tall on a 40-inch TV,
  // easy to read from 3 m.
  const readable = 48;
  const tv720 = { width: 1280, height: 720 };
  const hd = { width: 1920, height: 1080 };
  const uhd = { width: 3840, height: 2160 };

  it('sizes the countdown for a TV across the room, and larger on a larger screen', async () => {
    const px = {};
    for (const viewport of [tv720, hd, uhd]) {
      const { page, context } = await openCountdown(viewport);
      try {
        px[name(viewport)] = {
          clock: await fontSize(page, '.wtii-clock'),
          seconds: await fontSize(page, '.wtii-seconds-value'),
        };
      } finally {
        await context.close();
      }
    }
    const at = (v) => px[name(v)];
    const sizesText = JSON.stringify(px);
    for (const key of ['clock', 'seconds']) {
      assert.ok(
        at(tv720)[key] >= readable,
        `${key} at 1280×720 under ${readable} px: ${sizesText}`,
      );
      assert.ok(at(uhd)[key] > at(hd)[key], `${key} does not grow from 1080p to 4K: ${sizesText}`);
    }
  });

  it('sizes the pit’s next match for a TV across the room, and larger on a larger screen', async () => {
    const px = {};
    for (const viewport of [tv720, hd, uhd]) {
      const { page, context } = await openPit(viewport);
      try {
        await eventually(
          'the next match label',
          async () => (await page.locator('.pit-hero__label').count()) > 0,
          5000,
        );
        px[name(viewport)] = {
          label: await fontSize(page, '.pit-hero__label'),
          countdown: await fontSize(page, '.pit-countdown'),
        };
      } finally {
        await context.close();
      }
    }
    const at = (v) => px[name(v)];
    const sizesText = JSON.stringify(px);
    for (const key of ['label', 'countdown']) {
      assert.ok(
        at(tv720)[key] >= readable,
        `${key} at 1280×720 under ${readable} px: ${sizesText}`,
      );
      assert.ok(at(uhd)[key] > at(hd)[key], `${key} does not grow from 1080p to 4K: ${sizesText}`);
    }
  });
});
