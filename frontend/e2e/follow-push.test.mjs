// The follow page's push path end to end (issue 37): at a phone's 390×844
// and a laptop's 1280×720 a follower turns alerts on with the Notify-me
// control, serve (--event 2026okok --push-allow-loopback) takes the
// subscription, Nexus's webhook says our Qualification 14 is queuing and a
// real push service stand-in (the npm package web-push-testing, which
// checks the VAPID signature and decrypts the message) gets exactly one
// notification naming it; turned off, the next queue call reaches the
// follower no more. The one boundary replaced is the browser's
// PushManager: its subscribe and getSubscription give a subscription the
// stand-in made for the server's key (Chromium here has no push service to
// reach). Each size has a serve of its own, with fresh data: a
// notification's ID (queue/2026okok/qualification-14/0) is sent once per
// server, so a second follower on the same server would never hear Q14's
// call again.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from '@playwright/test';
import { outputLine, saveScreenshot, startServer, viewports } from './harness.mjs';
import { expect } from './fixtures.mjs';

/** The Nexus webhook's token of these tests' servers. */
const token = 'follow-push-e2e-token';

const sizes = { phone: viewports.phone, laptop: { width: 1280, height: 720 } };

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts web-push-testing's server script with node (its CLI's `start`
 * would leave a daemon behind), as internal/testutil/webpushtest does.
 */
async function startPushService() {
  const cli = realpathSync(new URL('../node_modules/.bin/web-push-testing', import.meta.url));
  const script = join(dirname(cli), 'server.js');
  const port = await freePort();
  const child = spawn(process.execPath, [script, String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await outputLine(child, 'the push service stand-in starts', /Server running on port/, 30_000);
  const url = `http://127.0.0.1:${port}`;
  /** POSTs body to path and returns the answer's data. */
  const post = async (path, body) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`push service: POST ${path}: ${res.status}`);
    return (await res.json()).data;
  };
  return {
    /** A subscription for applicationServerKey, as PushManager.subscribe would make it; its endpoint names 127.0.0.1. */
    async subscribe(applicationServerKey) {
      const sub = await post('/subscribe', { userVisibleOnly: 'true', applicationServerKey });
      return { ...sub, endpoint: sub.endpoint.replace('://localhost:', '://127.0.0.1:') };
    },
    /** The decrypted payloads the service has taken for sub, oldest first. */
    async messages(sub) {
      return (await post('/get-notifications', { clientHash: sub.clientHash })).messages;
    },
    stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

// One stand-in for the file, started and stopped around its tests.
let pushService;
test.beforeAll(async () => {
  pushService = await startPushService();
});
test.afterAll(async () => {
  await pushService?.stop();
});

/** Runs test with a serve of its own: the demo event, the push API taking loopback endpoints. */
async function withServe(test) {
  const server = await startServer({
    extraArgs: ['--event', '2026okok', '--push-allow-loopback'],
    env: { NEXUS_WEBHOOK_TOKEN: token },
  });
  try {
    return await test(server);
  } finally {
    await server.stop();
  }
}

/**
 * Nexus's event status as its webhook sends it: ours, match `ours`
 * ("Qualification 14"), at status, the match before it on the field; as of
 * asOf (ms).
 */
function nexusStatus(ours, status, asOf) {
  const n = Number(ours.split(' ')[1]);
  const before = `Qualification ${n - 1}`;
  return {
    eventKey: '2026okok',
    dataAsOfTime: asOf,
    nowQueuing: before,
    matches: [
      {
        label: before,
        status: 'On field',
        redTeams: ['118', '254', '1678'],
        blueTeams: ['148', '971', '2056'],
        times: { estimatedStartTime: asOf },
      },
      {
        label: ours,
        status,
        redTeams: ['1209', '2357', '4500'],
        blueTeams: ['3310', '624', '5414'],
        times: { estimatedQueueTime: asOf + 60_000, estimatedStartTime: asOf + 12 * 60_000 },
      },
    ],
    announcements: [],
    partsRequests: [],
  };
}

/** Posts Nexus's status to the server's webhook. */
async function webhook(server, body) {
  const res = await fetch(`${server.url}/api/nexus/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Nexus-Token': token },
    body: JSON.stringify(body),
  });
  expect(res.status, 'the webhook').toBe(200);
}

/** Nexus says match `ours` is queuing soon (and the server shows it), then that it is queuing. */
async function queueCall(server, ours) {
  await webhook(server, nexusStatus(ours, 'Queuing soon', Date.now()));
  await expect
    .poll(async () => (await fetch(`${server.url}/api/event`)).text())
    .toContain(`"label":"${ours}"`);
  await webhook(server, nexusStatus(ours, 'Now queuing', Date.now() + 1000));
}

/**
 * Runs in the page before its scripts: PushManager's subscribe and
 * getSubscription give the stand-in's subscription `made` (endpoint and
 * keys) in place of the browser's push service. The key the page
 * subscribes with is kept as options.applicationServerKey, as the browser
 * does, and in window.__pushKeys (URL-safe base64) for the test to read.
 */
function replacePushManager(made) {
  let current = null;
  window.__pushKeys = [];
  const b64url = (bytes) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  PushManager.prototype.subscribe = async function subscribe(options = {}) {
    const given = options.applicationServerKey;
    const bytes = ArrayBuffer.isView(given)
      ? new Uint8Array(given.buffer, given.byteOffset, given.byteLength)
      : new Uint8Array(given);
    window.__pushKeys.push(b64url(bytes));
    if (current) return current;
    const key = bytes.slice().buffer;
    current = {
      endpoint: made.endpoint,
      expirationTime: null,
      options: { applicationServerKey: key, userVisibleOnly: options.userVisibleOnly === true },
      getKey: () => null,
      toJSON: () => ({ endpoint: made.endpoint, expirationTime: null, keys: { ...made.keys } }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function getSubscription() {
    return current;
  };
}

/** The notification payloads naming label. */
const naming = (messages, label) => messages.filter((m) => JSON.parse(m).title?.includes(label));

for (const [size, viewport] of Object.entries(sizes)) {
  test(`turned on at ${size} size, one queue call reaches the follower; turned off, none`, ({
    browser,
  }) =>
    withServe(async (server) => {
      const { publicKey } = await (await fetch(`${server.url}/api/push/key`)).json();
      expect(publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
      const follower = await pushService.subscribe(publicKey);
      // Another follower, subscribed by hand, hears the call the page's follower must not once off.
      const other = await pushService.subscribe(publicKey);
      const direct = await fetch(`${server.url}/api/push/subscribe`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          endpoint: other.endpoint,
          keys: other.keys,
          topics: ['queuing'],
          matchesAhead: 0,
        }),
      });
      expect(direct.status, 'the other follower subscribes').toBe(201);

      const context = await browser.newContext({ viewport });
      try {
        await context.grantPermissions(['notifications']);
        await context.addInitScript(replacePushManager, {
          endpoint: follower.endpoint,
          keys: follower.keys,
        });
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
        page.on('console', (msg) => {
          if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
        });
        await page.goto(`${server.url}/follow`, { waitUntil: 'networkidle' });

        const notify = page.getByRole('region', { name: 'Notify me' });
        await expect(notify.getByRole('status')).toHaveText('Alerts are off.');
        // Only the queue call, when we're queuing.
        for (const topic of [
          'Each result',
          'Alliance selection',
          'Playoff outcome',
          'News posts',
        ]) {
          await notify.getByRole('checkbox', { name: topic }).uncheck();
        }
        await notify.getByRole('checkbox', { name: 'When we’re queuing' }).check();
        await notify.getByRole('combobox', { name: 'Queue alert' }).selectOption('when we queue');
        const subscribed = page.waitForResponse(
          (res) => res.url().endsWith('/api/push/subscribe') && res.request().method() === 'POST',
        );
        await notify.getByRole('button', { name: 'Turn on alerts' }).click();
        const answer = await subscribed;
        // The server took it: a request of the wrong shape gets 400 and the control says so.
        expect(answer.request().postDataJSON()).toEqual({
          endpoint: follower.endpoint,
          expirationTime: null,
          keys: follower.keys,
          topics: ['queuing'],
          matchesAhead: 0,
        });
        expect(answer.status()).toBe(201);
        await expect(notify.getByRole('status')).toHaveText('Alerts are on for this device.');
        await expect(notify.getByRole('button', { name: 'Save my choices' })).toBeVisible();
        await expect(notify.getByRole('button', { name: 'Turn off' })).toBeVisible();
        expect(await page.evaluate(() => window.__pushKeys)).toEqual([publicKey]);
        await saveScreenshot(notify, `follow-push-on-${size}`);

        await queueCall(server, 'Qualification 14');
        await expect
          .poll(async () => (await pushService.messages(follower)).length, { timeout: 15_000 })
          .toBeGreaterThan(0);
        // Long enough for a second copy to have come, were there one.
        await sleep(2000);
        const messages = await pushService.messages(follower);
        expect(messages).toHaveLength(1);
        const payload = JSON.parse(messages[0]);
        expect(payload.title).toContain('Qualification 14');
        expect(payload.title.toLowerCase()).toContain('queu');

        // Turned off: the server forgets the follower.
        const unsubscribed = page.waitForResponse(
          (res) => res.url().endsWith('/api/push/unsubscribe') && res.request().method() === 'POST',
        );
        await notify.getByRole('button', { name: 'Turn off' }).click();
        const gone = await unsubscribed;
        expect(gone.request().postDataJSON()).toEqual({ endpoint: follower.endpoint });
        expect(gone.ok(), `unsubscribe answered ${gone.status()}`).toBe(true);
        await expect(notify.getByRole('status')).toHaveText('Alerts are off.');
        await expect(notify.getByRole('button', { name: 'Turn on alerts' })).toBeVisible();

        await queueCall(server, 'Qualification 20');
        // The call went out (the other follower has it) and did not reach the page's follower.
        await expect
          .poll(async () => naming(await pushService.messages(other), 'Qualification 20').length, {
            timeout: 15_000,
          })
          .toBe(1);
        await sleep(1000);
        expect(naming(await pushService.messages(follower), 'Qualification 20')).toEqual([]);
        expect(await pushService.messages(follower)).toHaveLength(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }));
}
