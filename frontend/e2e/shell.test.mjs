// Every route of the spec answers with the app shell and renders; an unknown
// path lands on the home page.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { frames, specRoutes, startServer, viewports } from './harness.mjs';
import { expect, test } from './fixtures.mjs';

/** The narrowest phone in common use, the phone every page is checked at, the first
 * wide layout (650 px) and a small laptop. */
const layoutViewports = [
  { width: 320, height: 640 },
  viewports.phone,
  { width: 650, height: 900 },
  { width: 1024, height: 768 },
];

test.describe('app shell', () => {
  for (const route of specRoutes) {
    test(`renders ${route}`, async ({ site }) => {
      await site.open(route, async ({ page, errors }) => {
        await page.locator('main#main').waitFor();
        await page.locator('footer').waitFor();
        assert.equal(new URL(page.url()).pathname, route);
        assert.notEqual(await page.title(), '');
        assert.deepEqual(errors, []);
      });
    });
  }

  for (const viewport of layoutViewports) {
    test(`cuts no text off on any route ${viewport.width} px wide`, async ({ site }) => {
      const cut = [];
      for (const route of specRoutes) {
        await site.open(route, viewport, async ({ page }) => {
          await page.locator('main#main h1').first().waitFor();
          // A heading, paragraph or control whose content is wider than its own box is
          // clipped or spills out of the page (visually hidden text, in a 1 px box, is not).
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll('h1, h2, h3, p, li, a, button, label, dt, dd')]
              .filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
              .map((el) => `<${el.localName}> ${el.textContent.trim().slice(0, 40)}`),
          );
          cut.push(...wide.map((w) => `${route}: ${w}`));
        });
      }
      assert.deepEqual(cut, []);
    });
  }

  test('redirects an unknown path to /', async ({ site }) => {
    await site.open('/no/such/page', async ({ page }) => {
      await page.waitForURL((u) => u.pathname === '/');
      assert.equal(new URL(page.url()).pathname, '/');
    });
  });

  test('shows a notice for a season page it cannot fetch, and loads it, styled, once the site answers', async ({
    site,
  }) => {
    await site.open('/', async ({ page }) => {
      // The visitor's network drops on the way to a page loaded on demand.
      const offline = (route) => route.abort('internetdisconnected');
      await page.route('**/assets/crescendo-*', offline);
      await page.route('**/healthz', offline);
      await page.getByRole('link', { name: 'Learn More about Crescendo' }).click();
      const notice = page.getByRole('alert');
      await notice.getByRole('heading', { name: 'This page could not be loaded' }).waitFor();
      const retry = notice.getByRole('button', { name: 'Try again now' });
      const asked = page.waitForEvent('requestfailed', (req) => req.url().endsWith('/healthz'));
      await retry.click();
      // The page asked whether the site answers, got no answer, and has painted since.
      await asked;
      await frames(page);
      assert.ok(await notice.isVisible(), 'offline, the notice stays, not the browser error page');

      await page.unrouteAll();
      await retry.click();
      const title = page.locator('h1.cres-title');
      await title.waitFor();
      // The page's own style sheet came too (its title is gradient-filled text).
      assert.equal(await title.evaluate((el) => getComputedStyle(el).color), 'rgba(0, 0, 0, 0)');
    });
  });

  test('answers 404 for a missing asset and 405 for POST', async ({ site }) => {
    const missing = await fetch(`${site.server.url}/assets/nope.js`);
    assert.equal(missing.status, 404);
    const post = await fetch(`${site.server.url}/news`, { method: 'POST' });
    assert.equal(post.status, 405);
  });
});

test.describe('graceful shutdown', () => {
  test('ends open event streams and exits 0 on SIGTERM', async () => {
    const server = await startServer();
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/news/stream`, { signal: controller.signal });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const reader = res.body.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /retry: \d+/);
    // The stream is open; shutting down must close it, not wait for it.
    const code = await server.stop();
    assert.equal(code, 0, `exit code ${code}:\n${server.log()}`);
    let done = false;
    while (!done) ({ done } = await reader.read());
    assert.match(server.log(), /shutting down/);
  });

  test('exits at once on a second signal while a request holds the shutdown', async () => {
    const server = await startServer({ env: { NEXUS_WEBHOOK_TOKEN: 'shutdown-test' } });
    const { hostname, port } = new URL(server.url);
    // A push whose body is not sent yet, until the server asks for it (100
    // Continue): then its handler is reading, and the shutdown waits for it
    // (up to its 8 s grace).
    const push = async () => {
      const socket = connect(Number(port), hostname);
      await once(socket, 'connect');
      const conn = { socket, answer: '', closed: false };
      socket.on('data', (chunk) => (conn.answer += chunk));
      socket.on('close', () => (conn.closed = true));
      socket.write(
        'POST /api/nexus/webhook HTTP/1.1\r\nHost: test\r\nNexus-Token: shutdown-test\r\n' +
          'Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n',
      );
      await expect
        .poll(() => conn.answer, { message: 'the server asks for the body' })
        .toContain('100 Continue');
      return conn;
    };
    const first = await push();
    const second = await push();
    const mark = server.log().length;
    server.signal('SIGTERM');
    await expect
      .poll(() => server.log().slice(mark), { message: 'the server says it shuts down' })
      .toMatch(/shutting down/);
    // Shutting down, it still serves the open requests: the first is answered.
    first.socket.write('{}');
    const outcome = () => {
      if (/\r\n\r\nHTTP\/1\.1 \d{3} /.test(first.answer)) return 'answered';
      return first.closed ? 'dropped' : 'open';
    };
    await expect
      .poll(outcome, { message: 'the first signal waits for the open request to be answered' })
      .not.toBe('open');
    assert.equal(outcome(), 'answered', 'the first signal did not wait for the open request');
    const start = Date.now();
    server.signal('SIGTERM');
    await server.exited;
    const tookMs = Date.now() - start;
    first.socket.destroy();
    second.socket.destroy();
    assert.ok(tookMs < 1000, `the second signal took ${tookMs} ms to end the server`);
    await server.stop();
  });
});
