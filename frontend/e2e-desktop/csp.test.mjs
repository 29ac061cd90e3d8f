// The Content-Security-Policy in the real window: the page
// reports every violation it sees to Go, which logs it ("csp violation").
// The window rotates through every route, then shows the countdown's party,
// and its log has no violation; an article with an image from another site,
// which the policy blocks, shows that the window enforces the policy and
// that its violations reach the log. The window is not scrolled (a key or a
// touch would pause the rotation) and the page listens from its script on,
// so the season page's lazy video and index.html's own markup are
// e2e/csp.test.mjs's to check.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { specRoutes } from '../e2e/harness.mjs';
import { startDesktop, withDesktop, xvfbForSuite } from './desktop-harness.mjs';

/**
 * Every route of the spec but the countdown (its party comes 10 s after it
 * opens; it has its own test), the pit display with no event, a path no
 * route has (the site sends it home) and an article that does not exist,
 * each with the route the page then reports.
 */
const visits = [
  ...specRoutes.filter((path) => path !== '/whattimeisit').map((path) => ({ path, shows: path })),
  { path: '/no-such-page', shows: '/' },
  { path: '/pit', shows: '/pit' },
  { path: '/news/no-such-article', shows: '/news/no-such-article' },
];

/** The log lines of policy violations ("csp violation", and the counts after the first few). */
const violations = (log) => log.split('\n').filter((line) => /msg="csp violation/.test(line));

/** The "page" line the window logs when it shows route. */
const pageLine = (route) =>
  new RegExp(`msg=page route=${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `);

describe('Content-Security-Policy in the window', () => {
  const xvfb = xvfbForSuite();

  it('no route breaks the policy', async () => {
    const rotate = visits.map((v) => v.path).join(',');
    await withDesktop(xvfb.display, ['--rotate', rotate, '--every', '2s'], async (app) => {
      // One whole turn, from the rotation's first step (the window may
      // report its start page after it) back to the start page, which
      // also gives the last route its whole time.
      let from = 0;
      for (const { shows } of [...visits.slice(1), visits[0]]) {
        const m = await app.waitForLog(pageLine(shows), 30000, from);
        from += m.index + m[0].length;
      }
      assert.deepEqual(violations(app.log()), []);
    });
  });

  it('the countdown breaks no rule of the policy through its party', async () => {
    // At debug level the window logs every heartbeat of the page.
    await withDesktop(
      xvfb.display,
      ['--route', '/whattimeisit', '--log-level', 'debug'],
      async (app) => {
        await app.waitForLog(/msg=page route=\/whattimeisit .*headings=Countdown/);
        // Debug mode: the party starts 10 s after the page opens; the page
        // reports itself every 5 s.
        const party = await app.waitForLog(
          /msg=page route=\/whattimeisit .*headings="What time is it\?"/,
          25000,
        );
        // The party goes on until the page's next heartbeat, up to 5 s later.
        await app.waitForLog(
          /msg=heartbeat route=\/whattimeisit /,
          10000,
          party.index + party[0].length,
        );
        assert.deepEqual(violations(app.log()), []);
      },
    );
  });

  it('logs what the policy blocks: an article’s image from another site', async () => {
    // A store of one article, whose plain-http image the policy's img-src does not allow.
    const dataDir = mkdtempSync(join(tmpdir(), 'robohornets-desktop-'));
    mkdirSync(join(dataDir, 'news'));
    writeFileSync(
      join(dataDir, 'news', 'outside-image.md'),
      '---\ntitle: "An image from elsewhere"\ndate: 2026-11-20T18:00:00-06:00\n---\n![A robot](http://192.0.2.1/robot.png)\n',
    );
    const app = startDesktop(xvfb.display, ['--route', '/news/outside-image'], { dataDir });
    try {
      await app.waitForLog(
        /msg="csp violation" route=\/news\/outside-image directive=img-src blocked=http:\/\/192\.0\.2\.1\/robot\.png /,
      );
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
