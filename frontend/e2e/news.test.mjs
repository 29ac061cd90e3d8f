// The news pages, live end to end: the real server on the local store (files
// written as a person would) and on Google's Firestore emulator (documents
// written through its REST API, never through the project's code).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveScreenshot, startServer, viewports, withPage } from './harness.mjs';
import { ownSite } from './fixtures.mjs';

// The tests write articles into the server's data: a server of their own.
const test = ownSite(async () => ({ server: await startServer() }));

const titles = (page) => page.locator('.news-item__title').allTextContents();

/** Marks the window so a later check can prove the page was not reloaded. */
const markWindow = (page) => page.evaluate(() => (window.__noReload = true));
const stillSameWindow = (page) => page.evaluate(() => window.__noReload === true);

function articleFile(title, date, body) {
  return `---\ntitle: ${JSON.stringify(title)}\ndate: ${date}\n---\n${body}\n`;
}

test.describe('news on the local store', () => {
  test('lists the sample articles newest first, with dates, previews and Read More', async ({
    site,
  }) => {
    for (const [name, viewport] of Object.entries(viewports)) {
      await site.open(
        '/news',
        viewport,
        {
          timezoneId: 'America/Chicago',
        },
        async ({ page, errors }) => {
          await page.locator('.news-item').first().waitFor();
          assert.equal(await page.title(), 'RoboHornets - News');
          assert.equal(
            await page.locator('meta[name="description"]').getAttribute('content'),
            'The latest news and updates from the team.',
          );
          assert.equal(await page.getByRole('heading', { level: 1, name: 'NEWS' }).count(), 1);
          const list = await titles(page);
          assert.ok(list.length >= 4, `only ${list.length} articles`);
          assert.equal(list[0], 'Welcome to the new RoboHornets site');
          const dates = await page.locator('.news-item__date').allTextContents();
          assert.match(dates[0], /^November 20, 2026(,| at) 6:00\s?PM$/);
          const previews = await page.locator('.news-item__preview').allTextContents();
          assert.ok(
            previews.some((p) => p.includes('…')),
            'no preview is cut with an ellipsis',
          );
          assert.equal(await page.getByRole('link', { name: /^Read More/ }).count(), list.length);
          await saveScreenshot(page, `news-${name}`, { fullPage: true });
          assert.deepEqual(errors, []);
        },
      );
    }
  });

  test('sorts by the four orders', async ({ site }) => {
    await site.open('/news', async ({ page }) => {
      await page.locator('.news-item').first().waitFor();
      const select = page.getByLabel('Sort by');
      assert.equal(await select.inputValue(), 'new-old');
      const newest = await titles(page);
      await select.selectOption('old-new');
      assert.deepEqual(await titles(page), [...newest].reverse());
      await select.selectOption('a-z');
      const az = await titles(page);
      assert.deepEqual(
        az,
        [...az].sort((a, b) => a.localeCompare(b)),
      );
      await select.selectOption('z-a');
      assert.deepEqual(await titles(page), [...az].reverse());
    });
  });

  test('opens an article with Read More, then follows writes, edits and deletes live', async ({
    site,
  }) => {
    await site.open('/news', async ({ page, errors }) => {
      await page.locator('.news-item').first().waitFor();
      await markWindow(page);
      const file = join(site.server.dataDir, 'news', 'live-from-the-shop.md');
      writeFileSync(
        file,
        articleFile('Live from the shop', '2026-11-21T12:00:00-06:00', 'First **draft**.'),
      );
      await page.locator('.news-item__title', { hasText: 'Live from the shop' }).waitFor();
      assert.equal((await titles(page))[0], 'Live from the shop');

      await page.getByRole('link', { name: /^Read More\W+Live from the shop$/ }).click();
      await page.waitForURL(/\/news\/live-from-the-shop$/);
      await page.locator('h1', { hasText: 'Live from the shop' }).waitFor();
      assert.equal(await page.locator('.news-article__body strong').innerText(), 'draft');
      assert.equal(await page.title(), 'Live from the shop - RoboHornets');

      writeFileSync(
        file,
        articleFile('Live from the shop', '2026-11-21T12:00:00-06:00', 'Second *edit*.'),
      );
      await page.locator('.news-article__body em', { hasText: 'edit' }).waitFor();

      rmSync(file);
      await page.locator('h1', { hasText: 'Live from the shop' }).waitFor({ state: 'detached' });
      assert.equal(await stillSameWindow(page), true, 'the page reloaded');
      assert.deepEqual(errors, []);
    });
  });

  test('shows nothing for a missing article, without errors', async ({ site }) => {
    await site.open('/news/no-such-article', async ({ page, errors }) => {
      await page.locator('footer').waitFor();
      assert.equal(await page.locator('main h1').count(), 0);
      assert.equal(new URL(page.url()).pathname, '/news/no-such-article');
      assert.deepEqual(errors, []);
    });
  });

  test('never runs markup written into an article', async ({ site }) => {
    const file = join(site.server.dataDir, 'news', 'sneaky.md');
    writeFileSync(
      file,
      articleFile(
        '<img src=x onerror="window.__xss=1">',
        '2026-11-21T13:00:00Z',
        '<script>window.__xss=2</script>\n\n<img src=x onerror="window.__xss=3">\n\n[click](javascript:window.__xss=4) [help](ms-msdt:x)',
      ),
    );
    try {
      await site.open('/news/sneaky', async ({ page }) => {
        await page.locator('.news-article__body').waitFor();
        // A link of any scheme but http, https and mailto is its text.
        assert.equal(await page.locator('.news-article__body a').count(), 0);
        await page.locator('.news-article__body p', { hasText: 'click help' }).click();
        assert.equal(await page.evaluate(() => window.__xss), undefined);
        assert.match(await page.locator('.news-article__body').innerText(), /<script>/);
      });
    } finally {
      rmSync(file);
    }
  });
});

test.describe('news on Firestore (the real emulator)', () => {
  /** The Firestore emulator of the run (go run ./cmd/withemulator; make test-e2e starts it). */
  const emulator = process.env.ROBOHORNETS_FIRESTORE_EMULATOR_HOST;
  let server;
  let browser;
  // A project of its own on the shared emulator.
  const project = `e2e-${randomBytes(4).toString('hex')}`;
  /** The REST URL of the News collection of the project. */
  const newsURL = `http://${emulator}/v1/projects/${project}/databases/(default)/documents/News`;
  test.beforeAll(async ({ browser: workers }) => {
    assert.ok(
      emulator,
      'ROBOHORNETS_FIRESTORE_EMULATOR_HOST names no Firestore emulator: run the suite under go run ./cmd/withemulator (make test-e2e does)',
    );
    server = await startServer({
      extraArgs: ['--store', 'firestore', '--project', project],
      env: { FIRESTORE_EMULATOR_HOST: emulator },
    });
    browser = workers;
  });
  test.afterAll(() => server?.stop());

  const rest = async (method, url, fields) => {
    const res = await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: fields ? JSON.stringify({ fields }) : undefined,
    });
    assert.equal(res.status, 200, `${method} ${url}: ${await res.text()}`);
  };
  const doc = (title, content, date) => ({
    title: { stringValue: title },
    content: { stringValue: content },
    date: { timestampValue: date },
  });

  test('shows a document written to Firestore without reload, then its edit and delete', async () => {
    await withPage({ browser, server }, '/news', async ({ page, errors }) => {
      await page.locator('.news__empty').waitFor();
      await markWindow(page);
      const url = newsURL;
      const written = performance.now();
      await rest(
        'POST',
        `${url}?documentId=emulator-news`,
        doc('Written to Firestore', 'Hello from **Firestore**.', '2026-11-21T18:00:00Z'),
      );
      await page.locator('.news-item__title', { hasText: 'Written to Firestore' }).waitFor();
      console.log(
        `# write-to-screen latency, first write to a fresh emulator project: ${(performance.now() - written).toFixed(0)} ms`,
      );

      await page.getByRole('link', { name: /^Read More\W+Written to Firestore$/ }).click();
      await page.locator('.news-article__body strong', { hasText: 'Firestore' }).waitFor();
      const edited = performance.now();
      await rest(
        'PATCH',
        `${url}/emulator-news`,
        doc('Edited in Firestore', 'Changed.', '2026-11-21T18:00:00Z'),
      );
      await page.locator('h1', { hasText: 'Edited in Firestore' }).waitFor();
      console.log(
        `# write-to-screen latency, an edit: ${(performance.now() - edited).toFixed(0)} ms`,
      );
      await rest('DELETE', `${url}/emulator-news`);
      await page.locator('h1', { hasText: 'Edited in Firestore' }).waitFor({ state: 'detached' });
      assert.equal(await stillSameWindow(page), true, 'the page reloaded');
      assert.deepEqual(errors, []);
    });
  });
});
