// Harness of the desktop tests: a real Xvfb display, the real Wails binary
// on it, its log read as it runs, and screenshots of the whole screen.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The desktop binary under test. */
export const desktopBinary =
  process.env.ROBOHORNETS_DESKTOP_BIN ??
  new URL('../../build/bin/robohornets', import.meta.url).pathname;

/**
 * Starts Xvfb on a free display and resolves with its name, like ":99".
 * size is the screen's WIDTHxHEIGHT; args are more Xvfb options, like
 * ['-noreset'] or ['-fbdir', dir].
 */
export async function startXvfb({ size = '1280x800', args = [] } = {}) {
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${size}x24`, '-nolisten', 'tcp', ...args],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  );
  let out = '';
  xvfb.stdio[3].on('data', (chunk) => (out += chunk));
  const [, number] = await logLine('Xvfb names its display', () => out, /^(\d+)\n/, 10000, xvfb);
  const display = `:${number}`;
  return {
    display,
    async stop() {
      const exited = new Promise((resolve) => xvfb.once('exit', resolve));
      xvfb.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts Xvfb (startXvfb's options) before the tests of the suite this is
 * called in and stops it after them. Returns it: its display is there once
 * the suite's tests run.
 */
export function xvfbForSuite(options) {
  const xvfb = {};
  before(async () => Object.assign(xvfb, await startXvfb(options)));
  after(() => xvfb.stop?.());
  return xvfb;
}

/**
 * Starts the window as startDesktop does (args and options may be left out),
 * runs test with it, and stops the window however the test ends.
 */
export async function withDesktop(display, ...rest) {
  const test = rest.pop();
  const [args, options] = rest;
  const app = startDesktop(display, args, options);
  try {
    return await test(app);
  } finally {
    await app.stop();
  }
}

/**
 * Starts the desktop window on display with a fresh data directory (or the
 * given one) and extra environment variables. waitForLog(re, timeoutMs, from) resolves with the first match
 * of re in the log after offset from (see mark).
 */
export function startDesktop(display, args = [], { dataDir, env = {} } = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'robohornets-desktop-'));
  // Its own process group, so stop() also ends the WebKit processes it started.
  const child = spawn(desktopBinary, ['--data', dir, ...args], {
    env: { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const onData = (chunk) => (log += chunk);
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    dataDir: dir,
    pid: child.pid,
    /** Resolves with the exit code once the program has ended. */
    exited: () => exited,
    log: () => log,
    /** The log's length now, to wait for lines written after this point. */
    mark: () => log.length,
    waitForLog(re, timeoutMs = 60000, from = 0) {
      return logLine(`a log line matching ${re}`, () => log.slice(from), re, timeoutMs).catch(
        (err) => {
          throw new Error(`${err.message}:\n${log}`, { cause: err });
        },
      );
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      try {
        process.kill(-child.pid, 'SIGKILL'); // leftovers, like a page process a test froze
      } catch {
        // the group is gone already
      }
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Takes a screenshot of the whole display and returns its number of distinct colours. */
export async function screenshot(display, file) {
  await run('import', ['-display', display, '-window', 'root', file]);
  const { stdout } = await run('convert', [file, '-format', '%k', 'info:']);
  return Number(stdout.trim());
}

/** The pid of the WebKit process that runs the page of the app with pid appPid. */
export async function webProcessOf(appPid) {
  const { stdout } = await run('pgrep', ['-P', String(appPid), '-f', 'WebKitWebProcess']);
  const pid = Number(stdout.trim().split('\n')[0]);
  if (!pid) throw new Error(`no WebKitWebProcess under ${appPid}`);
  return pid;
}

/** Resident memory of a window's whole process group (Go, WebKit), in KiB. */
export async function groupRSS(pgid) {
  const { stdout } = await run('ps', ['-o', 'rss=', '-g', String(pgid)]);
  return stdout
    .split('\n')
    .map(Number)
    .filter((n) => n > 0)
    .reduce((a, b) => a + b, 0);
}

/** The last 40 lines of a window's log, less the access log: why a run ended early. */
export function lastWords(app) {
  const lines = app
    .log()
    .split('\n')
    .filter((line) => !line.includes('msg=http'));
  return lines.slice(-40).join('\n');
}

/**
 * Polls fn every `every` ms until it returns a truthy value, and resolves
 * with that value; fn may also throw (an assertion, say) to mean "not yet".
 * Fails after timeoutMs with the last error or value. The one wait of the
 * window's tests that goes by the clock: every other waits for a
 * condition through it, or for an event.
 */
export async function eventually(what, fn, timeoutMs = 10_000, { every = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last;
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const why = last instanceof Error ? last.message : `last: ${JSON.stringify(last)}`;
      throw new Error(`${what} did not happen within ${timeoutMs} ms (${why})`, {
        cause: last instanceof Error ? last : undefined,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/**
 * Waits until re matches the text log() returns (a process's output so far)
 * and resolves with the match; fails at once when child has exited, and
 * after timeoutMs.
 */
export function logLine(what, log, re, timeoutMs, child) {
  return eventually(
    what,
    () => {
      const m = re.exec(log());
      if (m) return m;
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        throw new Error(`it exited with ${child.exitCode ?? child.signalCode}:\n${log()}`);
      }
      return null;
    },
    timeoutMs,
    { every: 20 },
  );
}
