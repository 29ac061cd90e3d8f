// The team console end to end: the real `serve` with its local store,
// Chromium on a 360×740 phone screen with a virtual authenticator (CDP's
// WebAuthn domain: ctap2, internal, resident keys, user verification), and
// the `admin invite` command for the first invitation. Then what an attacker
// tries from a browser: the console's pages, files and API without a
// session, and an invitation link used twice.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { binary, saveScreenshot, startServer } from './harness.mjs';
import { expect, test } from './fixtures.mjs';

const phone = { width: 360, height: 740 };

/** A small PNG of w×h pixels of one colour, as a camera roll might hold (but tiny). */
function png(w, h, [r, g, b]) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Adds a virtual passkey authenticator to page (a phone's: built in, with user verification). */
async function addAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Every Content-Security-Policy violation any page of the suite reported (Chromium logs each). */
const cspViolations = [];

/** Records page's policy violations in cspViolations; returns page. */
function watchCSP(page) {
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return page;
}

/** Whether the page scrolls sideways (it must not, on a phone). */
const scrollsSideways = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test.describe('the team console', () => {
  let server;
  let browser;
  /** The site as the browser reaches it: WebAuthn wants a domain, so localhost, not 127.0.0.1. */
  let site;
  /** The passkey made at enrolment, to sign in with in a fresh browser. */
  let credentials;
  /** The link of the first invitation, used once. */
  let link;
  /** The signed-in phone, and the post it writes. */
  let page;
  const title = `Robots at the lake ${Date.now()}`;
  let postPath;

  // Each test goes on from where the one before left off.
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser: workers }) => {
    server = await startServer();
    site = server.url.replace('127.0.0.1', 'localhost');
    browser = workers;
  });
  test.afterAll(() => server?.stop());

  /** Runs `robohornets admin invite` on the server's data and returns the link it prints. */
  async function invite(role, name) {
    const { stdout } = await promisify(execFile)(binary, [
      'admin',
      '--data',
      server.dataDir,
      'invite',
      '--role',
      role,
      '--name',
      name,
      '--site-url',
      site,
    ]);
    const m = /(\S+\/admin\/enrol#[\w-]+)/.exec(stdout);
    assert.ok(m, `admin invite printed no link: ${stdout}`);
    return m[1];
  }

  test('keeps the console, its files and its API from anyone without a session', async () => {
    const page = await fetch(`${site}/admin/posts/new`, { redirect: 'manual' });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/admin/signin?next=%2Fadmin%2Fposts%2Fnew');
    for (const path of ['/admin/api/me', '/admin/api/posts', '/admin/api/members']) {
      assert.equal((await fetch(site + path)).status, 401, path);
    }
    const files = readdirSync(new URL('../dist/assets/console/', import.meta.url)).filter((f) =>
      /\.(js|css)$/.test(f),
    );
    assert.ok(files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')));
    for (const file of files) {
      // The file's own path needs a session (401); a spelling with an
      // escaped slash has no meaning of its own and is refused (404).
      for (const [path, status] of [
        [`/assets/console/${file}`, 401],
        [`/assets/console%2F${file}`, 404],
        [`/assets%2Fconsole%2F${file}`, 404],
      ]) {
        const res = await fetch(site + path);
        assert.equal(res.status, status, path);
        assert.doesNotMatch(await res.text(), /useState|admin-button/, path);
      }
    }

    // In the browser: the console sends to sign-in, which comes back to it.
    const context = await browser.newContext({ viewport: phone });
    const tab = watchCSP(await context.newPage());
    const consoleFiles = [];
    tab.on(
      'request',
      (req) => req.url().includes('/assets/console/') && consoleFiles.push(req.url()),
    );
    await tab.goto(`${site}/admin/members`);
    assert.equal(
      new URL(tab.url()).pathname + new URL(tab.url()).search,
      '/admin/signin?next=%2Fadmin%2Fmembers',
    );
    await tab.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    assert.deepEqual(consoleFiles, [], 'the sign-in page asked for console files');
    assert.equal(await scrollsSideways(tab), false);
    await saveScreenshot(tab, 'console-signin-360');
    await context.close();
  });

  test('enrols a passkey from an invitation link, which then dies', async () => {
    link = await invite('admin', 'Ada');
    const context = await browser.newContext({ viewport: phone });
    page = watchCSP(await context.newPage());
    const { cdp, authenticatorId } = await addAuthenticator(page);
    await page.goto(link);
    // The token leaves the address bar at once.
    await expect(page, 'the fragment is cleared').toHaveURL((u) => u.hash === '');
    assert.equal(new URL(page.url()).pathname, '/admin/enrol');
    await page.getByLabel('Name of this device').fill('Test phone');
    await page.getByRole('button', { name: 'Create passkey' }).click();
    await page.waitForURL(`${site}/admin`);
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    ({ credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId }));
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true);

    // The same link again, in a browser without a session: refused, with its sentence.
    const other = await browser.newContext({ viewport: phone });
    const replay = watchCSP(await other.newPage());
    await replay.goto(link);
    await replay
      .getByRole('alert')
      .filter({ hasText: 'This invitation link has expired or was already used' })
      .waitFor();
    assert.equal(await replay.getByRole('button', { name: 'Create passkey' }).isDisabled(), true);
    await other.close();
  });

  test('signs in with that passkey in a fresh browser', async () => {
    await page.context().close();
    const context = await browser.newContext({ viewport: phone });
    page = watchCSP(await context.newPage());
    const { cdp, authenticatorId } = await addAuthenticator(page);
    for (const credential of credentials) {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    }
    await page.goto(`${site}/admin/notice`);
    await page.waitForURL(/\/admin\/signin\?next=%2Fadmin%2Fnotice$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${site}/admin/notice`);
    await page.getByRole('heading', { name: 'Pit notice' }).waitFor();
    assert.equal(await scrollsSideways(page), false);
  });

  test('refuses a change sent from another site, even with the session cookie', async () => {
    const [session] = (await page.context().cookies(site)).filter(
      (c) => c.name === '__Host-rh-session',
    );
    assert.ok(session, 'the session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, 'Strict');
    const cookie = `${session.name}=${session.value}`;
    const forged = await fetch(`${site}/admin/api/posts`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://attacker.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ title: 'Forged', date: new Date().toISOString(), content: 'x' }),
    });
    assert.equal(forged.status, 403);
    const posts = await (
      await fetch(`${site}/admin/api/posts?q=Forged`, { headers: { cookie } })
    ).json();
    assert.deepEqual(posts, [], 'the forged post was made');
  });

  test('writes a post, keeps the text through a lost network, and offers it back', async () => {
    await page.getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByLabel('Title', { exact: true }).fill(title);
    const text = page.getByLabel('Text (markdown)');
    await text.fill('First paragraph.');
    const saved = page.locator('.editor__saved');
    // The post is on the site.
    await expect(page).toHaveURL((u) => /^\/admin\/posts\/robots-at-the-lake-/.test(u.pathname));
    await expect(saved).toHaveText('Saved');
    postPath = new URL(page.url()).pathname;
    assert.equal(await scrollsSideways(page), false);
    await saveScreenshot(page, 'console-editor-360');

    await page.context().setOffline(true);
    await text.press('End');
    await text.pressSequentially(' Written offline.');
    await expect(saved, 'the editor says the text waits on the phone').toContainText(
      'Saved on this phone — will sync',
    );
    const key = `rh-console:post:${postPath.split('/').pop()}`;
    const kept = await page.evaluate((k) => localStorage.getItem(k), key);
    assert.match(kept, /First paragraph\. Written offline\./);

    await page.context().setOffline(false);
    await page.reload();
    await expect(async () => {
      const restore = page.getByRole('button', { name: 'Restore unsaved text' });
      if (await restore.isVisible()) await restore.click();
      assert.equal(await text.inputValue(), 'First paragraph. Written offline.');
    }, 'the text written offline is back').toPass();
    await expect
      .poll(
        async () => {
          const post = await page.evaluate(
            (p) => fetch(`/admin/api/posts/${p}`).then((r) => r.json()),
            postPath.split('/').pop(),
          );
          return post.content;
        },
        { message: 'it reaches the site' },
      )
      .toBe('First paragraph. Written offline.');
  });

  test('uploads a photo and puts its markdown at the cursor', async () => {
    const text = page.getByLabel('Text (markdown)');
    await text.press('End');
    await page.locator('input[type=file]').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: png(40, 30, [245, 183, 0]),
    });
    const photo = /!\[[^\]]*\]\((\/media\/[0-9a-f]+\.(?:png|jpg))\)/;
    await expect(text, 'the photo is in the text').toHaveValue(photo);
    const markdown = photo.exec(await text.inputValue());
    const res = await fetch(site + markdown[1]);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^image\/(png|jpeg)$/);
    assert.match(res.headers.get('cache-control'), /immutable/);
    await expect(page.locator('.editor__saved'), 'the text with the photo is saved').toHaveText(
      'Saved',
    );
  });

  test('schedules the post a few seconds ahead and an open /news page shows it then', async () => {
    const news = watchCSP(await browser.newPage({ viewport: phone }));
    await news.goto(`${site}/news`);
    await news.locator('.news-item__title').first().waitFor();
    assert.equal(await news.getByText(title).count(), 0);
    await news.evaluate(() => (window.__noReload = true));

    await page.getByRole('button', { name: 'Schedule…' }).click();
    const at = await page.evaluate(() => {
      const d = new Date(Date.now() + 5000);
      const p = (n) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await page.getByLabel('Publish at').fill(at);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.locator('.editor__status', { hasText: 'Scheduled for' }).waitFor();
    assert.equal(await news.getByText(title).count(), 0, 'shown before its time');

    await expect(
      news.getByText(title),
      'the open /news page shows the post at its time',
    ).not.toHaveCount(0, { timeout: 15_000 });
    assert.equal(await news.evaluate(() => window.__noReload), true, 'the page was reloaded');
    await news.close();
  });

  test('restores an earlier revision as a new one', async () => {
    await page.getByRole('tab', { name: 'Revisions' }).click();
    await page.getByRole('button', { name: /^1\. / }).click();
    await page.getByRole('button', { name: 'Restore this revision' }).click();
    await expect(
      page.getByLabel('Text (markdown)'),
      'the first text is back in the editor',
    ).toHaveValue('First paragraph.');
    await page.getByRole('tab', { name: 'Revisions' }).click();
    await page.getByRole('button', { name: /restored from 1/ }).waitFor();
  });

  test('sets a pit notice that /pit shows', async () => {
    const pit = watchCSP(await browser.newPage());
    await pit.goto(`${site}/pit`);
    const notice = `Team at the practice field ${Date.now() % 1000}`;
    await page.getByRole('link', { name: 'Notice', exact: true }).click();
    await page.getByLabel('Notice', { exact: true }).fill(notice);
    await page.getByRole('button', { name: 'Show the notice' }).click();
    await page.getByText(`“${notice}”`).waitFor();
    await expect(pit.getByText(notice), 'the open pit display shows the notice').not.toHaveCount(0);
    await page.getByRole('button', { name: 'Clear the notice' }).click();
    await expect(pit.getByText(notice), 'the notice leaves the pit display').toHaveCount(0);
    await pit.close();
  });

  test('breaks no rule of the Content-Security-Policy on any of its pages', () => {
    assert.deepEqual(cspViolations, []);
  });
});
