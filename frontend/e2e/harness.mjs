// Shared harness of the end-to-end tests: runs the real `robohornets serve`
// binary on a free loopback port with its own data directory, and drives
// Debian's Chromium through playwright-core.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** The binary under test: $ROBOHORNETS_BIN, else the static serve-only build. */
export const binary =
  process.env.ROBOHORNETS_BIN ??
  new URL('../../build/bin/robohornets-server', import.meta.url).pathname;

/** Every route of the spec, with one article of the sample news. */
export const specRoutes = [
  '/',
  '/about',
  '/contact',
  '/news',
  '/news/build-season-by-the-numbers',
  '/outreach',
  '/sponsors',
  '/donate',
  '/reefscape',
  '/crescendo',
  '/whattimeisit',
  '/rebuilt',
];

/** Phone and desktop viewports every page is checked at. */
export const viewports = {
  desktop: { width: 1920, height: 1080 },
  phone: { width: 390, height: 844 },
};

/**
 * Starts `robohornets serve` on 127.0.0.1 with a fresh data directory (or the
 * given one) and resolves once it listens. extraArgs and env are passed on.
 */
export async function startServer({ dataDir, extraArgs = [], env = {} } = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'robohornets-e2e-'));
  const child = spawn(binary, ['serve', '--listen', '127.0.0.1:0', '--data', dir, ...extraArgs], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 15000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /"msg":"serving","url":"(http:\/\/[^"]+)"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url,
    dataDir: dir,
    log: () => log,
    /** Sends SIGTERM and resolves with the exit code once the server has ended. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Launches headless Debian Chromium, set up for a machine with no internet. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens path on the server in a new page of the given viewport and collects
 * console errors and failed requests, so a test can assert there were none.
 */
export async function openPage(browser, server, path, viewport = viewports.desktop, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  await page.goto(server.url + path, { waitUntil: 'networkidle' });
  return { page, context, errors };
}

/** Where screenshots go (git-ignored); look at them before calling a page done. */
export const screenshotDir = new URL('../screenshots/', import.meta.url).pathname;
mkdirSync(screenshotDir, { recursive: true });

/** Starts a server (with startServer's options) and a browser for one test file. */
export async function startSite(options) {
  const server = await startServer(options);
  const browser = await launchBrowser();
  return { server, browser };
}

/** Ends what startSite started. */
export async function stopSite({ server, browser }) {
  await browser?.close();
  await server?.stop();
}

/** Where Debian's google-cloud-cli-firestore-emulator puts Google's emulator. */
const emulatorJar =
  process.env.FIRESTORE_EMULATOR_JAR ??
  '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';

/**
 * Starts Google's Firestore emulator on a free loopback port in its own
 * process group; resolves with its host:port once it is ready.
 */
export async function startFirestoreEmulator() {
  const port = await new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
  const child = spawn(
    'java',
    [
      '-cp',
      emulatorJar,
      'com.google.cloud.datastore.emulator.firestore.CloudFirestore',
      'start',
      '--host=127.0.0.1',
      `--port=${port}`,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator not ready:\n${log}`)), 90000);
    const onData = (chunk) => {
      log += chunk;
      if (log.includes('Dev App Server is now running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}:\n${log}`));
    });
  });
  const host = `127.0.0.1:${port}`;
  return {
    host,
    /** The REST URL of the News collection of project. */
    newsURL: (project) =>
      `http://${host}/v1/projects/${project}/databases/(default)/documents/News`,
    stop() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
