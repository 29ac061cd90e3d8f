// The kiosk faces in the real window: the shop TV's countdown, the pit
// display's page rotation, the watchdog on a page that stopped answering,
// and news written while the window is open.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  eventually,
  screenshot,
  startDesktop,
  startXvfb,
  webProcessOf,
  withDesktop,
  xvfbForSuite,
} from './desktop-harness.mjs';
import { startReplay } from '../e2e/replay.mjs';

const shots = new URL('../screenshots/', import.meta.url).pathname;

describe('kiosk window', () => {
  const xvfb = xvfbForSuite();

  it('shows "What time is it?" about 10 s after start on the shop TV', async () => {
    await withDesktop(xvfb.display, ['--kiosk', '--route', '/whattimeisit'], async (app) => {
      await app.waitForLog(/msg=page route=\/whattimeisit .*headings=Countdown/);
      // Debug mode (the spec's default) targets 10 s after load; the page
      // reports itself every 5 s, so allow 10 + 5 + slack.
      await app.waitForLog(/msg=page route=\/whattimeisit .*headings="What time is it\?"/, 25000);
      const colours = await screenshot(xvfb.display, join(shots, 'desktop-whattimeisit-party.png'));
      assert.ok(colours > 50, `screenshot has only ${colours} colours`);
    });
  });

  it('rotates through pages on time', async () => {
    await withDesktop(
      xvfb.display,
      ['--rotate', '/about,/contact', '--every', '3s'],
      async (app) => {
        await app.waitForLog(/msg=page route=\/about /);
        await app.waitForLog(/msg=page route=\/contact /, 15000);
        const back =
          /msg=page route=\/about [^\n]*\n(?:.*\n)*?.*msg=page route=\/contact [^\n]*\n(?:.*\n)*?.*msg=page route=\/about /;
        await app.waitForLog(back, 15000);
      },
    );
  });

  it('shows an article written while it is open', async () => {
    await withDesktop(xvfb.display, ['--route', '/news'], async (app) => {
      await app.waitForLog(/msg=page route=\/news /);
      writeFileSync(
        join(app.dataDir, 'news', 'pit-update.md'),
        '---\ntitle: "Pit update: robot passed inspection"\ndate: 2026-11-21T09:00:00-05:00\n---\nGreen light!\n',
      );
      await app.waitForLog(
        /msg=page route=\/news .*headings="NEWS \| All news \| Pit update: robot passed inspection/,
        20000,
      );
      await screenshot(xvfb.display, join(shots, 'desktop-news-live.png'));
    });
  });

  it('reloads a page that stopped answering, and exits when reloading does not help', async () => {
    await withDesktop(xvfb.display, ['--watchdog', '3s'], async (app) => {
      await app.waitForLog(/msg=page route=\/ /);
      // Freeze the page for real: stop the process that runs it.
      const web = await webProcessOf(app.pid);
      process.kill(web, 'SIGSTOP');
      await app.waitForLog(/watchdog: the page stopped answering; reloading/, 15000);
      const reloaded = app.mark();
      process.kill(web, 'SIGCONT');
      // The page comes back after the reload and answers again.
      await app.waitForLog(/watchdog: the page is answering again/, 15000, reloaded);

      // Frozen for good: three reloads, then the program exits non-zero so
      // its supervisor can restart it.
      process.kill(await webProcessOf(app.pid), 'SIGSTOP');
      const ended = { done: false, code: undefined };
      void app.exited().then((code) => Object.assign(ended, { done: true, code }));
      await eventually('the program gives up and exits', () => ended.done, 40000);
      assert.match(app.log(), /watchdog: giving up/);
      assert.notEqual(ended.code, 0, `exit code ${ended.code}`);
    });
  });
});

describe('kiosk single instance', () => {
  it('brings the running window forward instead of opening a second one', async () => {
    // One D-Bus session bus for both starts, as a desktop session has.
    const xvfb = await startXvfb();
    const bus = spawn('dbus-daemon', ['--session', '--print-address=1', '--nofork'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const address = await new Promise((resolve) =>
      bus.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
    );
    const env = { DBUS_SESSION_BUS_ADDRESS: address };
    const first = startDesktop(xvfb.display, ['--kiosk'], { env });
    let second;
    try {
      await first.waitForLog(/msg=page route=\/ /);
      second = startDesktop(xvfb.display, ['--kiosk'], { env, dataDir: first.dataDir });
      // Wails ends a second start that handed over with status 1.
      const handedOver = { done: false };
      void second.exited().then(() => (handedOver.done = true));
      await eventually('the second start hands over and exits', () => handedOver.done, 20000);
      await first.waitForLog(/kiosk: started again; bringing this window forward/, 10000);
    } finally {
      await second?.stop();
      await first.stop();
      bus.kill();
      await xvfb.stop();
    }
  });
});

describe('pit display in the window', () => {
  it('holds the rotation on /pit while our match queues, and resumes once it is on field', async () => {
    const xvfb = await startXvfb();
    // Our Qualification 10 starts queuing 5 s in and is on field at 45 s;
    // Nexus is polled every 30 s, so the window sees each change within 30 s.
    const fixture = new URL('./fixtures/queue-hold.json', import.meta.url).pathname;
    const upstream = await startReplay({ timeline: fixture });
    const app = startDesktop(
      xvfb.display,
      [
        '--rotate',
        '/about,/contact',
        '--every',
        '4s',
        '--event',
        '2026hold',
        // At debug level the window logs each heartbeat of the page.
        '--log-level',
        'debug',
        ...upstream.args,
      ],
      { env: { NEXUS_API_KEY: upstream.env.NEXUS_API_KEY } },
    );
    try {
      await app.waitForLog(/msg=page route=\/about /);
      const held = await app.waitForLog(
        /msg=page route=\/pit .*headings=[^\n]*Qualification 10/,
        45000,
      );
      const heldAt = app.mark();
      await screenshot(xvfb.display, join(shots, 'desktop-pit-queue-hold.png'));
      // Held: three heartbeats of the page (5 s apart, so more than three
      // rotation intervals) pass without leaving the pit display.
      await eventually(
        'three heartbeats on /pit',
        () =>
          (
            app
              .log()
              .slice(heldAt)
              .match(/msg=heartbeat route=\/pit /g) ?? []
          ).length >= 3,
        30000,
      );
      assert.doesNotMatch(
        app.log().slice(heldAt),
        /msg=page route=\/(about|contact) /,
        `the rotation left /pit during the hold (held at: ${held[0]})`,
      );
      // On field: back to the first page, then on as before.
      await app.waitForLog(/msg=page route=\/about /, 45000, heldAt);
      await app.waitForLog(/msg=page route=\/contact /, 15000, heldAt);
    } finally {
      await app.stop();
      await upstream.stop();
      await xvfb.stop();
    }
  });
});
