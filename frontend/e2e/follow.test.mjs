// The follow page (issue 37) against serve reading the replay's demo event:
// at a phone's 390×844 and a laptop's 1280×720 it shows the live event from
// its stream, nothing is cut off and nothing scrolls sideways, axe finds no
// serious violation; the manifest is served and its icons are what it says;
// the service worker registers on /follow only (not on /pit, nor /); and
// after one visit online the page opens offline from the worker's cache,
// saying "as of". Screenshots go to screenshots/follow-*.png.
import { AxeBuilder } from '@axe-core/playwright';
import { fixtureT0, loadBoard } from './fixtures/pit-status.mjs';
import { openPage, saveScreenshot, viewports } from './harness.mjs';
import { expect, ownSite } from './fixtures.mjs';
import { startPitSite, stopPitSite } from './replay.mjs';

const test = ownSite(startPitSite, stopPitSite);

const sizes = { phone: viewports.phone, laptop: { width: 1280, height: 720 } };

/** Answers the page's event stream with the board's status name, its times moved to now. */
function streamBoard(name) {
  return async (context) => {
    const status = loadBoard(name, Date.now() - fixtureT0);
    status.eventPlace = 'Tulsa, OK, USA';
    await context.route('**/api/event/stream', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
        body: `retry: 3600000\nevent: event\ndata: ${JSON.stringify(status)}\n\n`,
      }),
    );
  };
}

/** The width and height of a PNG, from its IHDR. */
function pngSize(bytes) {
  const b = Buffer.from(bytes);
  if (b.toString('ascii', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Runs in the page: texts that stick out of the screen sideways, and whether the page scrolls sideways. */
function sideways() {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    if (!el.checkVisibility?.() || el.children.length > 0 || !el.textContent?.trim()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5) out.push(`${el.textContent.trim().slice(0, 40)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') {
      out.push(`cut: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  return { out, scrolls: document.documentElement.scrollWidth > width };
}

for (const [size, viewport] of Object.entries(sizes)) {
  test(`shows the live event from the stream, whole, accessible, at ${size} size`, async ({
    site,
    browser,
  }) => {
    const { page, context, errors, cspViolations } = await openPage(
      browser,
      site.server,
      '/follow',
      viewport,
      {},
      streamBoard('qualifications'),
    );
    try {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Test Regional');
      await expect(page.getByRole('heading', { name: 'Our next match' })).toBeVisible();
      await expect(page.getByText('Qualification 5', { exact: true })).toBeVisible();
      await expect(page.getByText('Rank 9 of 30')).toBeVisible();
      await expect(page.getByText('Top 8: 64% · likely 6th–11th')).toBeVisible();
      await expect(page.getByRole('link', { name: /Watch live/ })).toHaveAttribute(
        'href',
        'https://www.twitch.tv/firstinspires',
      );
      await expect(page.getByText(/your time/).first()).toBeVisible();
      const notify = page.getByRole('region', { name: 'Notify me' });
      // Chromium has Web Push: the control offers it (the push end to end is the lead's).
      await expect(notify.getByRole('status')).toHaveText('Alerts are off.');
      const fit = await page.evaluate(sideways);
      expect(fit.out).toEqual([]);
      expect(fit.scrolls).toBe(false);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
      ).toEqual([]);
      await saveScreenshot(page, `follow-qualifications-${size}`, { fullPage: true });
      expect(await cspViolations()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}

test('shows the playoffs at phone size', async ({ site, browser }) => {
  const { page, context } = await openPage(
    browser,
    site.server,
    '/follow',
    viewports.phone,
    {},
    streamBoard('playoffs-lower'),
  );
  try {
    await expect(page.getByText('If we lose → eliminated')).toBeVisible();
    expect((await page.evaluate(sideways)).scrolls).toBe(false);
    await saveScreenshot(page, 'follow-playoffs-phone', { fullPage: true });
  } finally {
    await context.close();
  }
});

test('serves a valid manifest whose icons are what it says', async ({ site, request }) => {
  const res = await request.get(`${site.server.url}/manifest.webmanifest`);
  expect(res.status()).toBe(200);
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: 'RoboHornets 1209 — Follow',
    short_name: '1209 Live',
    start_url: '/follow',
    scope: '/',
    display: 'standalone',
    theme_color: '#111111',
    background_color: '#111111',
  });
  const purposes = [];
  for (const icon of manifest.icons) {
    const got = await request.get(new URL(icon.src, site.server.url).href);
    expect(got.status(), icon.src).toBe(200);
    expect(got.headers()['content-type']).toBe('image/png');
    const { width, height } = pngSize(await got.body());
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    purposes.push(`${icon.sizes} ${icon.purpose}`);
  }
  expect(purposes.sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
});

test('the worker registers on /follow only, and the page opens offline from its cache', async ({
  site,
  browser,
}) => {
  const context = await browser.newContext({ viewport: viewports.phone });
  try {
    const page = await context.newPage();
    // Not on / nor /pit: those pages never register it.
    for (const path of ['/', '/pit']) {
      await page.goto(site.server.url + path, { waitUntil: 'networkidle' });
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations()), path).toEqual(
        [],
      );
    }
    await page.goto(`${site.server.url}/follow`, { waitUntil: 'networkidle' });
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
      'href',
      '/manifest.webmanifest',
    );
    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.scope;
    });
    expect(scope).toBe(`${site.server.url}/follow`);
    // Controlled once it claimed the page; the snapshot is fetched through it on the next load.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('RoboHornets live');
    const title = await page.getByRole('heading', { level: 1 }).textContent();
    // /pit is not under the worker.
    await page.goto(`${site.server.url}/pit`, { waitUntil: 'networkidle' });
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await page.goto(`${site.server.url}/follow`, { waitUntil: 'networkidle' });

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title ?? '');
    await expect(page.getByText(/^As of \d\d:\d\d/)).toContainText('Offline: last saved');
    await saveScreenshot(page, 'follow-offline-phone', { fullPage: true });
  } finally {
    await context.close();
  }
});
