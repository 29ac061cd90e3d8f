// The Content-Security-Policy in practice: every page, an
// unknown path and a missing file (404) carry the policy, which lets no
// inline or eval'd script run; no page breaks it in Chromium against
// `serve`; and a page that does is seen. Each route is loaded at a desktop
// and a phone size and made to show what it holds back: scrolled to its
// end (lazy images, the season page's video), its menu opened, its live
// data awaited, the countdown's party reached. The pit display is seen fed
// by the replay server and with no event at all.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clockIn, frames, openPage, specRoutes, startServer, viewports } from './harness.mjs';
import { startPitSite, stopPitSite } from './replay.mjs';
import { expect, ownSite } from './fixtures.mjs';

// The pit display's site, and a second server, which follows no event; the
// test of the policy's enforcement adds an article to its news.
const test = ownSite(
  async () => ({ ...(await startPitSite()), noEvent: await startServer() }),
  async (site) => {
    await site.noEvent.stop();
    await stopPitSite(site);
  },
);

const zone = 'America/Chicago';

/** A path no route has: the server answers it with the site, which sends it home. */
const notFound = '/no-such-page';

/** What a route shows once it has its data; other routes are ready once loaded. */
const readySelector = {
  '/news': '.news-item',
  '/news/build-season-by-the-numbers': '#article-title',
  '/pit': '.pit-hero__label',
};

/**
 * The pages to visit: every route of the spec but the countdown (which has
 * its own test below), the pit display fed and with no event (noEvent: on
 * the server that follows none), the console's sign-in and enrolment pages,
 * an unknown path and an article that does not exist.
 */
const pages = [
  ...[...specRoutes, '/pit']
    .filter((path) => path !== '/whattimeisit')
    .map((path) => ({ path, ready: readySelector[path] })),
  { path: '/pit', noEvent: true },
  // The console's public pages (its others need a session: console.test.mjs
  // fails on a violation of the policy there).
  { path: '/admin/signin', ready: 'button' },
  { path: '/admin/enrol' },
  { path: notFound },
  { path: '/news/no-such-article' },
];

/** Answers the season page's video with a stand-in page, so no test reaches the internet. */
async function stubVideo(context) {
  await context.route('https://www.youtube-nocookie.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Video</title><p>video</p>',
    }),
  );
}

/**
 * Shows what the page holds back: opens the menu where it is folded,
 * scrolls to the end a half screen at a time (lazy images and frames load
 * as they come near), and lets what that started finish.
 */
async function explore(page) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if ((await menu.count()) > 0 && (await menu.isVisible())) {
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().waitFor();
    await menu.click();
  }
  await page.evaluate(async () => {
    const step = Math.max(200, Math.floor(window.innerHeight / 2));
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      // Two frames: laid out where it is now, so what comes near starts loading.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  // What that started has finished: every image has loaded or failed.
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  await frames(page);
}

/** The directives of a policy, each with its sources. */
function directives(policy) {
  const out = new Map();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

test.describe('Content-Security-Policy', () => {
  test('is on every page, an unknown path and a missing file, and runs no inline or eval’d script', async ({
    site,
  }) => {
    const policies = new Map();
    for (const path of [...specRoutes, '/pit', notFound, '/news/no-such-article']) {
      const res = await fetch(site.server.url + path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type'), /^text\/html/, path);
      policies.set(path, res.headers.get('content-security-policy'));
    }
    const missing = await fetch(`${site.server.url}/assets/no-such-file.js`);
    assert.equal(missing.status, 404);
    policies.set('/assets/no-such-file.js', missing.headers.get('content-security-policy'));

    const policy = policies.get('/');
    assert.ok(policy, 'the home page has no Content-Security-Policy');
    for (const [path, p] of policies) assert.equal(p, policy, `the policy of ${path}`);

    const d = directives(policy);
    const script = d.get('script-src') ?? d.get('default-src');
    assert.ok(script, `${policy}: no script-src or default-src`);
    for (const loose of [
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'unsafe-hashes'",
      "'wasm-unsafe-eval'",
      '*',
      'data:',
      'blob:',
      'http:',
      'https:',
    ]) {
      assert.ok(!script.includes(loose), `script sources ${script.join(' ')} allow ${loose}`);
    }
    const style = d.get('style-src') ?? d.get('default-src');
    assert.ok(!style.includes("'unsafe-inline'"), `style sources ${style.join(' ')}`);
    assert.deepEqual(d.get('object-src'), ["'none'"]);
    assert.deepEqual(d.get('base-uri'), ["'none'"]);
  });

  for (const { path, ready, noEvent: alone } of pages) {
    const name = alone ? `${path} with no event` : path;
    test(`${name} breaks no rule of the policy, at a desktop and a phone size`, async ({
      site,
    }) => {
      const server = alone ? site.noEvent : site.server;
      for (const [size, viewport] of Object.entries(viewports)) {
        const { page, context, errors, cspViolations } = await openPage(
          site.browser,
          server,
          path,
          viewport,
          {},
          stubVideo,
        );
        try {
          if (ready) await page.locator(ready).first().waitFor({ timeout: 20_000 });
          await explore(page);
          // The season page's video frame is allowed, and comes (a frame the
          // policy blocks is reported first, below).
          const video =
            path === '/reefscape' &&
            (await page
              .frameLocator('.reef-video iframe')
              .getByText('video')
              .waitFor({ timeout: 5000 })
              .then(
                () => 'came',
                () => 'did not come',
              ));
          assert.deepEqual(await cspViolations(), [], `${name} at ${size} size`);
          assert.deepEqual(errors, [], `${name} at ${size} size`);
          if (video) assert.equal(video, 'came', `the video at ${size} size`);
        } finally {
          await context.close();
        }
      }
    });
  }

  test('is enforced and seen: an article’s plain-http image is blocked', async ({ site }) => {
    const { noEvent } = site;
    // The news allows http and https images; the policy's img-src only https ones.
    writeFileSync(
      join(noEvent.dataDir, 'news', 'outside-image.md'),
      '---\ntitle: "An image from elsewhere"\ndate: 2026-11-20T18:00:00-06:00\n---\n![A robot](http://192.0.2.1/robot.png)\n',
    );
    await expect
      .poll(async () => (await fetch(`${noEvent.url}/api/news/outside-image`)).status, {
        message: 'the article',
      })
      .toBe(200);
    const { page, context, cspViolations } = await openPage(
      site.browser,
      noEvent,
      '/news/outside-image',
    );
    try {
      await page.locator('#article-title').waitFor();
      await expect
        .poll(async () => (await cspViolations()).length, {
          message: 'the violation',
          timeout: 5000,
        })
        .toBeGreaterThan(0);
      const seen = await cspViolations();
      assert.equal(seen.length, 1, seen.join('\n'));
      assert.match(seen[0], /^img-src blocked http:\/\/192\.0\.2\.1\/robot\.png /);
    } finally {
      await context.close();
    }
  });

  test('/whattimeisit breaks no rule of the policy through its countdown and party', async ({
    site,
  }) => {
    for (const [size, viewport] of Object.entries(viewports)) {
      // The party starts 4 s after the page loads, confetti and all.
      const { page, context, errors, cspViolations } = await openPage(
        site.browser,
        site.server,
        `/whattimeisit?debug=off&at=${clockIn(zone, 4)}`,
        viewport,
        { timezoneId: zone },
      );
      try {
        await page.locator('.wtii-seconds-value').waitFor();
        await explore(page);
        await page
          .getByRole('heading', { level: 1, name: 'What time is it?' })
          .waitFor({ timeout: 10_000 });
        // The confetti has been fired and painted.
        await page.waitForFunction(() => {
          const c = document.querySelector('canvas.wtii-confetti');
          if (!c?.width || !c.height) return false;
          const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
          for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
          return false;
        });
        await frames(page);
        assert.deepEqual(await cspViolations(), [], `/whattimeisit at ${size} size`);
        assert.deepEqual(errors, [], `/whattimeisit at ${size} size`);
      } finally {
        await context.close();
      }
    }
  });
});
