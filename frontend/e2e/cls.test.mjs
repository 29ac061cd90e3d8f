// Pages that never jump: every route, loaded fresh at a desktop and a phone
// size over a throttled connection (Lighthouse's presets' latency and
// bandwidth), moves nothing the visitor can see while it loads. A
// PerformanceObserver registered before any script of the page sums its
// layout shifts (those without recent input, as Cumulative Layout Shift
// counts them) until the page has its data and every file it asked for,
// and has painted them; the sum must stay at or under 0.02.
import assert from 'node:assert/strict';
import { frames, specRoutes } from './harness.mjs';
import { startPitSite, stopPitSite } from './replay.mjs';
import { expect, ownSite } from './fixtures.mjs';

const test = ownSite(startPitSite, stopPitSite);

/** The most layout shift a route may show while it loads. */
const maxShift = 0.02;

/** Every route of the spec, and the pit display fed by the replay server. */
const routes = [...specRoutes, '/pit'];

/** What each route shows once it has its data; other routes are done once loaded and settled. */
const readySelector = {
  '/news': '.news-item',
  '/news/build-season-by-the-numbers': '#article-title',
  '/whattimeisit': '.wtii-seconds-value',
  '/pit': '.pit-hero__label',
};

// Lighthouse's throttling: its mobile preset (slow 4G: 150 ms, 1.6 Mbit/s
// down; a 390×844 phone here) and its desktop preset (40 ms, 10 Mbit/s; its
// 1350×940 screen). Without latency a page on loopback often gets its code
// and data before its first paint, and a jump nobody would see here is one
// every real visitor sees.
const profiles = {
  desktop: {
    viewport: { width: 1350, height: 940 },
    network: { latency: 40, downloadThroughput: (10 * 1024 * 1024) / 8 },
  },
  phone: {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8 },
  },
};

/**
 * Runs in the page before any of its own scripts: records every layout
 * shift of the document as {value, hadRecentInput, at, sources}.
 */
function observeShifts() {
  const shifts = [];
  window.__layoutShifts = shifts;
  const describe = (node) => {
    if (!(node instanceof Element)) return node?.nodeName ?? '?';
    const cls = typeof node.className === 'string' ? node.className.trim() : '';
    return `${node.tagName.toLowerCase()}${cls ? `.${cls.split(/\s+/).join('.')}` : ''}`;
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      shifts.push({
        value: e.value,
        hadRecentInput: e.hadRecentInput,
        at: Math.round(e.startTime),
        sources: (e.sources ?? []).map((s) => describe(s.node)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** Opens path fresh at profile, waits until it has its data and is quiet, and returns its shifts. */
async function loadShifts(browser, server, path, profile) {
  const { network, ...options } = profile;
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      uploadThroughput: network.downloadThroughput,
      ...network,
    });
    await page.addInitScript(observeShifts);
    // The requests in flight, less the live streams, which stay open.
    const inFlight = new Set();
    page.on('request', (req) => req.resourceType() !== 'eventsource' && inFlight.add(req));
    page.on('requestfinished', (req) => inFlight.delete(req));
    page.on('requestfailed', (req) => inFlight.delete(req));
    await page.goto(server.url + path, { waitUntil: 'load' });
    const selector = readySelector[path];
    if (selector) await page.locator(selector).first().waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.querySelector('main .loading, [aria-busy="true"]'));
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    // Settled: every file the page asked for has come (or failed), and the
    // page has painted what they changed without asking for another.
    await expect(async () => {
      assert.equal(inFlight.size, 0, 'requests in flight');
      await frames(page, 3);
      assert.equal(inFlight.size, 0, 'requests in flight after painting');
    }, `${path} has every file it asked for`).toPass({ timeout: 20_000 });
    return await page.evaluate(() => window.__layoutShifts);
  } finally {
    await context.close();
  }
}

test.describe('layout shift while a page loads', () => {
  const figures = [];
  test.afterAll(() => {
    // The figure of every route at every size, for the record.
    console.log(`route                               ${Object.keys(profiles).join('    ')}`);
    for (const path of routes) {
      const row = Object.keys(profiles).map((name) => {
        const f = figures.find((x) => x.path === path && x.name === name);
        return f ? f.sum.toFixed(4).padStart(7) : '      -';
      });
      console.log(`${path.padEnd(36)}${row.join('    ')}`);
    }
  });

  for (const [name, profile] of Object.entries(profiles)) {
    test.describe(`${name} ${profile.viewport.width}×${profile.viewport.height}`, () => {
      for (const path of routes) {
        test(`${path} shifts at most ${maxShift}`, async ({ site }) => {
          const shifts = await loadShifts(site.browser, site.server, path, profile);
          const counted = shifts.filter((s) => !s.hadRecentInput);
          const sum = counted.reduce((total, s) => total + s.value, 0);
          figures.push({ path, name, sum });
          assert.ok(
            sum <= maxShift,
            `${path} at ${name} size shifts ${sum.toFixed(4)} (over ${maxShift}):\n  ${counted
              .map((s) => `${s.value.toFixed(4)} at ${s.at} ms: ${s.sources.join(', ')}`)
              .join('\n  ')}`,
          );
        });
      }
    });
  }
});
