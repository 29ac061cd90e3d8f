// The pit notice and scheduled posts, live end to end: the real server on the
// local stores, with files written as the console (or a person) would, and
// open pages that must follow them without a reload.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openPage, saveScreenshot, startServer, viewports } from './harness.mjs';
import { expect, ownSite } from './fixtures.mjs';

// The tests write the notice and posts into the server's data: a server of their own.
const test = ownSite(async () => ({ server: await startServer() }));

/** Writes data to path at once: a temporary file beside it, renamed over it. */
function writeAtomically(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${Date.now()}.tmp`);
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** A time msFromNow from now, RFC 3339 without fractions, as the console writes it. */
const rfc3339 = (msFromNow) =>
  new Date(Date.now() + msFromNow).toISOString().replace(/\.\d+Z$/, 'Z');

/** Writes the pit notice's document of the local console store. */
function writeNotice(dataDir, text, untilMs) {
  const notice = { text, until: rfc3339(untilMs), by: 'test', at: rfc3339(0) };
  writeAtomically(join(dataDir, 'console', 'Notices', 'pit.json'), JSON.stringify(notice));
}

/** The text of the site's notice bar, or of the pit display's notice line. */
const bannerText = (page) => page.locator('.notice-banner').innerText();
const pitLineText = (page) => page.locator('.pit-team-notice').innerText();

/** Marks the window so a later check can prove the page was not reloaded. */
const markWindow = (page) => page.evaluate(() => (window.__noReload = true));
const stillSameWindow = (page) => page.evaluate(() => window.__noReload === true);

test.describe('pit notice and scheduled posts', () => {
  test('shows a notice on the site and the pit display within 2 s, and takes it down at its expiry', async ({
    site,
  }) => {
    // Each page opens the notice's stream once it has loaded.
    const streams = { home: false, pit: false };
    const watchStream = (name) => (context) =>
      context.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/notice/stream') streams[name] = true;
      });
    const home = await openPage(
      site.browser,
      site.server,
      '/',
      viewports.phone,
      {},
      watchStream('home'),
    );
    const pit = await openPage(
      site.browser,
      site.server,
      '/pit',
      viewports.desktop,
      {},
      watchStream('pit'),
    );
    /** Waits until the notices of both pages, the site's bar and the pit's line, pass ok. */
    const bothNotices = (what, ok, timeout) =>
      expect(async () => {
        const texts = [await bannerText(home.page), await pitLineText(pit.page)];
        assert.ok(texts.every(ok), `the bar and the line say ${JSON.stringify(texts)}`);
      }, what).toPass({ timeout });
    try {
      for (const { page } of [home, pit]) await markWindow(page);
      await expect
        .poll(() => streams, { message: 'the pages to follow the notice' })
        .toEqual({ home: true, pit: true });
      assert.equal(await bannerText(home.page), '');

      writeNotice(site.server.dataDir, 'Pit closed for inspection', 10 * 60_000);
      await bothNotices(
        'the notice on / and /pit',
        (text) => text.includes('Pit closed for inspection'),
        2000,
      );
      // One place on the pit display: its own line, not the site's bar.
      assert.equal(await pit.page.locator('.notice-banner').count(), 0);
      const bar = await home.page.locator('.notice-banner p').boundingBox();
      assert.ok(bar && bar.width <= viewports.phone.width, `the bar is ${bar?.width} px wide`);
      assert.ok(
        bar.y + bar.height <= viewports.phone.height + 0.5,
        'the bar is not at the foot of the screen',
      );
      await saveScreenshot(home.page, 'notice-home-phone');
      await saveScreenshot(pit.page, 'notice-pit');

      // A notice that ends in 3 s goes by itself: nobody writes again.
      writeNotice(site.server.dataDir, 'Team at the practice field', 3000);
      await bothNotices(
        'the new notice on both pages',
        (text) => text.includes('Team at the practice field'),
        2000,
      );
      await bothNotices('the notice gone at its expiry', (text) => text === '', 6000);
      const res = await fetch(`${site.server.url}/api/notice`);
      assert.equal((await res.json()).text, '', 'the server still hands out the expired notice');
      for (const { page } of [home, pit]) {
        assert.equal(await stillSameWindow(page), true, 'a page reloaded');
      }
      assert.deepEqual(home.errors, []);
      assert.deepEqual(pit.errors, []);
    } finally {
      await home.context.close();
      await pit.context.close();
    }
  });

  test('publishes a scheduled post on an open /news page at its time', async ({ site }) => {
    await site.open('/news', async ({ page, errors }) => {
      await page.locator('.news-item').first().waitFor();
      await markWindow(page);
      const id = 'scheduled-from-the-shop';
      const date = rfc3339(3000);
      writeAtomically(
        join(site.server.dataDir, 'news', `${id}.md`),
        `---\ntitle: "Scheduled from the shop"\ndate: ${date}\n---\nRight **on time**.\n`,
      );
      const title = page.locator('.news-item__title', { hasText: 'Scheduled from the shop' });
      // Before its date: the server has the file, and shows it nowhere.
      await expect
        .poll(async () => (await fetch(`${site.server.url}/api/news/${id}`)).status, {
          message: 'the server to read the scheduled file',
        })
        .toBe(404);
      assert.equal(await title.count(), 0, 'the scheduled post shows before its date');
      const list = await (await fetch(`${site.server.url}/api/news`)).json();
      assert.ok(!list.articles.some((a) => a.id === id), 'the API lists the post before its date');

      await expect(title, 'the post at its date').toHaveCount(1, { timeout: 8000 });
      assert.ok(Date.now() >= Date.parse(date), 'the post showed before its date');
      assert.equal(
        (await page.locator('.news-item__title').first().innerText()).trim(),
        'Scheduled from the shop',
      );
      assert.equal((await fetch(`${site.server.url}/api/news/${id}`)).status, 200);
      assert.equal(await stillSameWindow(page), true, 'the page reloaded');
      assert.deepEqual(errors, []);
    });
  });
});
