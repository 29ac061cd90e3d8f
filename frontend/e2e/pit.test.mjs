// The pit display (/pit) in Chromium against `serve`, fed by the replay
// server playing the bundled qualification day through the real clients:
// the next match, its status and countdown, rank and record, a status change
// as it happens, a warning when upstream dies and recovery when it returns,
// the page fitting the first screen of a TV, and no API key anywhere.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, openPage, screenshotDir, startServer } from './harness.mjs';
import { replayKeys, startReplay } from './replay.mjs';

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

/** Elements of the pit board that lie (partly) outside the viewport. */
const outside = (page) =>
  page.locator('section.pit').evaluate((board) => {
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const out = [];
    for (const el of [board, ...board.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${vw}×${vh}`,
        );
      }
    }
    if (document.documentElement.scrollWidth > vw)
      out.push(`scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    return out;
  });

describe('pit display', () => {
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

  it('shows our next match, its countdown, rank and record, and a status change as it happens', async () => {
    const { page, context, errors } = await openPage(browser, server, '/pit', {
      width: 1280,
      height: 720,
    });
    try {
      const heading = page.getByRole('heading', { level: 1 });
      await eventually(
        'the next match',
        async () => (await heading.innerText()).includes('Qualification 14'),
        15000,
      );
      assert.match(await heading.innerText(), /Red alliance/);
      assert.equal(await page.title(), 'RoboHornets - Pit display');
      assert.equal(await page.locator('.pit-pill').innerText(), 'Queuing soon');
      const timer = page.getByRole('timer');
      const first = await timer.innerText();
      assert.match(first, /^Queue in \d+:\d{2}$/);
      await eventually(
        'the countdown to move',
        async () => (await timer.innerText()) !== first,
        3000,
      );
      const board = await page.locator('section.pit').innerText();
      assert.match(board, /Rank 9 of 30/);
      assert.match(board, /3-2-0/);
      assert.match(board, /Pit B12/);
      assert.match(board, /With 4414 · 5172/);
      assert.match(board, /Data as of \d{1,2}:\d{2}.*\(.*\)/);
      assert.equal(await page.locator('a[href="https://frc.nexus"]').isVisible(), true);
      assert.equal(
        await page.locator('a[href="https://www.thebluealliance.com"]').isVisible(),
        true,
      );
      await page.screenshot({ path: join(screenshotDir, 'pit-1280x720.png') });

      // Nexus calls the match to the queue within the demo's first 30 s; the
      // poller sees it within 30 s more and the page at once.
      await eventually(
        'Now queuing',
        async () => (await page.locator('.pit-pill').innerText()) === 'Now queuing',
        65000,
      );
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
    { width: 3840, height: 2160 },
    { width: 1080, height: 1920 },
  ]) {
    it(`fits the first screen at ${viewport.width}×${viewport.height}`, async () => {
      const { page, context } = await openPage(browser, server, '/pit', viewport);
      try {
        await page.getByRole('timer').waitFor();
        assert.deepEqual(await outside(page), []);
        await page.screenshot({
          path: join(screenshotDir, `pit-${viewport.width}x${viewport.height}.png`),
        });
      } finally {
        await context.close();
      }
    });
  }

  it('warns when upstream dies, keeps the last data, and recovers when it returns', async () => {
    const { page, context } = await openPage(browser, server, '/pit', { width: 1280, height: 720 });
    try {
      const label = page.locator('.pit-hero__label');
      await label.waitFor();
      const before = await label.innerText();
      await upstream.control('down');
      const warning = page.getByRole('status').filter({ hasText: /Nexus|Blue Alliance/ });
      // The next poll (Nexus every 30 s) finds it down.
      await warning.waitFor({ timeout: 45000 });
      assert.equal(await label.innerText(), before, 'the last data left the screen');
      await page.screenshot({ path: join(screenshotDir, 'pit-upstream-down.png') });
      await upstream.control('');
      // The first retry comes 30–60 s after the failure.
      await warning.waitFor({ state: 'detached', timeout: 75000 });
    } finally {
      await context.close();
    }
  });

  it('never shows an API key: not in any response, the bundle or the log', async () => {
    const keys = Object.values(replayKeys);
    const dist = new URL('../dist/', import.meta.url).pathname;
    const files = [
      'index.html',
      ...readdirSync(join(dist, 'assets')).map((f) => join('assets', f)),
    ];
    for (const f of files) {
      const text = readFileSync(join(dist, f), 'latin1');
      for (const key of keys) assert.ok(!text.includes(key), `${f} holds an API key`);
    }
    for (const path of [
      '/',
      '/pit',
      '/api/event',
      '/healthz',
      '/sitemap.xml',
      '/news.xml',
      '/api/news',
    ]) {
      const body = await (await fetch(server.url + path)).text();
      for (const key of keys) assert.ok(!body.includes(key), `${path} holds an API key`);
    }
    for (const key of keys)
      assert.ok(!server.log().includes(key), 'the server log holds an API key');
  });
});
