// Shared harness of the end-to-end tests: runs the real `robohornets serve`
// binary on a free loopback port with its own data directory, and opens
// pages of it in the browser @playwright/test gives (fixtures.mjs).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** What the spec says the pages show, as the unit tests expect it too (src/features/site/expected-content.json). */
export const expected = JSON.parse(
  readFileSync(new URL('../src/features/site/expected-content.json', import.meta.url), 'utf8'),
);

/** Phone and desktop viewports every page is checked at. */
export const viewports = {
  desktop: { width: 1920, height: 1080 },
  phone: { width: 390, height: 844 },
};

/**
 * The screens every full-screen page (/whattimeisit, /pit) must fit, the
 * desktop window's default size among them.
 */
export const screens = {
  tv720: { width: 1280, height: 720 },
  laptop: { width: 1366, height: 768 },
  hd: viewports.desktop,
  uhd: { width: 3840, height: 2160 },
  portrait: { width: 1080, height: 1920 },
  small: { width: 800, height: 600 },
  window: { width: 1280, height: 800 },
};

/** A viewport as test names and screenshots write it: 1280x720. */
export const viewportName = ({ width, height }) => `${width}x${height}`;

/**
 * Starts `robohornets serve` on 127.0.0.1 with a fresh data directory (or the
 * given one) and resolves once it listens. extraArgs and env are passed on.
 */
export async function startServer({ dataDir, extraArgs = [], env = {} } = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'robohornets-e2e-'));
  const child = spawn(binary, ['serve', '--listen', '127.0.0.1:0', '--data', dir, ...extraArgs], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The JSON log is on stdout; stderr has the reason of a failed start.
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const [, url] = await outputLine(
    child,
    'the server says it serves',
    /"message":"serving","url":"(http:\/\/[^"]+)"/,
    15000,
  );
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url,
    dataDir: dir,
    log: () => log,
    /** Sends the server a signal, like 'SIGTERM'. */
    signal: (name) => child.kill(name),
    /** Resolves with the exit code (null when a signal ended it) once the server has ended. */
    exited,
    /** Sends SIGTERM and resolves with the exit code once the server has ended. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The browser context option of a visitor who prefers reduced motion. */
export const reducedMotion = { reducedMotion: 'reduce' };

/** Chromium's flags for a machine with no internet: loopback only, nothing in the background (playwright.config.mjs). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Runs in every page before its own scripts: records each Content-Security-
 * Policy violation (the directive and what it blocked) in window.__csp.
 */
function recordCSPViolations() {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push(
      `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
    );
  });
}

/**
 * Opens path on the server in a new page of the given viewport and collects
 * console errors and failed requests, so a test can assert there were none.
 * cspViolations() resolves with the policy violations the page has seen
 * since it loaded. setup(context), when given, runs before the page loads:
 * to answer some requests with context.route, say.
 */
export async function openPage(
  browser,
  server,
  path,
  viewport = viewports.desktop,
  options = {},
  setup,
) {
  const context = await browser.newContext({ viewport, ...options });
  await context.addInitScript(recordCSPViolations);
  await setup?.(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  await page.goto(server.url + path, { waitUntil: 'networkidle' });
  const cspViolations = () => page.evaluate(() => window.__csp ?? []);
  return { page, context, errors, cspViolations };
}

/** Where screenshots go (git-ignored); look at them before calling a page done. */
export const screenshotDir = new URL('../screenshots/', import.meta.url).pathname;
mkdirSync(screenshotDir, { recursive: true });

/** Saves a screenshot of target (a page or a locator) as screenshots/name.png; options are Playwright's. */
export function saveScreenshot(target, name, options = {}) {
  return target.screenshot({ path: join(screenshotDir, `${name}.png`), ...options });
}

/** Asserts the page shows no site header, and its body says so (a season page's frame). */
export async function assertNoHeader(page) {
  assert.equal(await page.locator('header.site-header').count(), 0);
  assert.equal(await page.evaluate(() => document.body.classList.contains('no-header')), true);
}

/**
 * Opens path on the site as openPage does (the viewport and options, the
 * browser context's, may be left out), runs test with what openPage gives,
 * and closes the page's context however the test ends.
 */
export async function withPage({ browser, server }, path, ...rest) {
  const test = rest.pop();
  const [viewport, options = {}] = rest;
  const opened = await openPage(browser, server, path, viewport, options);
  try {
    return await test(opened);
  } finally {
    await opened.context.close();
  }
}

/**
 * Runs in the page: every element of the site header and of <main> that the
 * user can see (a non-empty box, not hidden, not in a transparent subtree,
 * not in the site footer) whose box leaves [0, innerWidth]×[0, innerHeight]
 * by more than 1 px, or the box of an ancestor that hides its overflow (cut
 * off), as "tag.class left,top–right,bottom", and a sideways scroll if there
 * is one.
 */
function offscreen() {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const tolerance = 1;
  const roots = [document.querySelector('.site-header'), document.querySelector('main')];
  const seen = new Set();
  const out = [];
  const describe = (el) => {
    const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
    return `${el.tagName.toLowerCase()}${cls ? `.${cls.trim().split(/\s+/).join('.')}` : ''}`;
  };
  const shown = (el) => {
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    }
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.opacity === '0') return false;
    }
    return getComputedStyle(el).visibility !== 'hidden';
  };
  for (const root of roots) {
    if (!root) continue;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (seen.has(el)) continue;
      seen.add(el);
      if (el.closest('.site-footer')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !shown(el)) continue;
      const px = (n) => Math.round(n);
      const box = `${px(r.left)},${px(r.top)}–${px(r.right)},${px(r.bottom)}`;
      if (
        r.left < -tolerance ||
        r.top < -tolerance ||
        r.right > vw + tolerance ||
        r.bottom > vh + tolerance
      ) {
        out.push(`${describe(el)} ${box}`);
        continue;
      }
      // Inside the screen but cut off by a panel that hides its overflow
      // (fixed boxes, like the confetti canvas, escape their ancestors').
      if (getComputedStyle(el).position === 'fixed') continue;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const c = a.getBoundingClientRect();
          if (
            r.left < c.left - tolerance ||
            r.top < c.top - tolerance ||
            r.right > c.right + tolerance ||
            r.bottom > c.bottom + tolerance
          ) {
            out.push(`${describe(el)} ${box} cut off by ${describe(a)}`);
            break;
          }
        }
        if (s.position === 'fixed') break;
      }
    }
  }
  const sw = document.documentElement.scrollWidth;
  if (sw > vw) out.push(`scrolls sideways: scrollWidth ${sw} > innerWidth ${vw}`);
  return out;
}

/** Asserts the page fits its viewport; the message lists the offenders. */
export async function assertFits(page, what) {
  const out = await page.evaluate(offscreen);
  const { width, height } = page.viewportSize();
  assert.deepEqual(
    out,
    [],
    `${what} at ${width}×${height}: ${out.length} element(s) outside the first screen:\n  ${out.join('\n  ')}`,
  );
}

/**
 * Resolves with the first match of re in what child writes (stdout and
 * stderr) from now on; fails at once when child exits first, and after
 * timeoutMs.
 */
export function outputLine(child, what, re, timeoutMs) {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const m = re.exec(out);
      if (m) finish(null, m);
    };
    const onExit = (code, signal) =>
      finish(
        new Error(`${what}: it exited with ${code ?? signal}:
${out}`),
      );
    const timer = setTimeout(
      () =>
        finish(
          new Error(`${what}: not within ${timeoutMs} ms:
${out}`),
        ),
      timeoutMs,
    );
    function finish(err, match) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(match);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Resolves once the page has rendered n more frames (what a change started has been painted). */
export function frames(page, n = 2) {
  return page.evaluate(
    (count) =>
      new Promise((resolve) => {
        let left = count;
        const next = () => (--left <= 0 ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
    n,
  );
}

/**
 * Resolves once the finite CSS animations and transitions running in the
 * elements of locator (and their subtrees) have finished (or were
 * cancelled), and the page has painted the result.
 */
export async function animationsDone(locator) {
  await locator.evaluateAll((els) =>
    Promise.all(
      els
        .flatMap((el) => el.getAnimations({ subtree: true }))
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
  await frames(locator.page());
}

/**
 * Scrolls the window to y (as the page's own scrolling, smooth or not) and
 * resolves once the scroll has ended and the page has painted it; at once
 * when the window cannot move there.
 */
export async function scrollWindowTo(page, y) {
  await page.evaluate(
    (top) =>
      new Promise((resolve) => {
        const before = window.scrollY;
        window.addEventListener('scrollend', () => resolve(), { once: true });
        window.scrollTo(0, top);
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            if (window.scrollY === before) resolve();
          }),
        );
      }),
    y,
  );
  await frames(page);
}

/** Turns the mouse wheel by dy and resolves once the scroll it makes has ended and is painted. */
export async function wheel(page, dy) {
  await page.evaluate(() => {
    window.__scrollEnded = new Promise((resolve) =>
      window.addEventListener('scrollend', () => resolve(), { once: true }),
    );
  });
  await page.mouse.wheel(0, dy);
  await page.evaluate(() => window.__scrollEnded);
  await frames(page);
}

/** The wall-clock time in timeZone, secondsAhead from now, as HH:MM:SS (a countdown's `at=`). */
export function clockIn(timeZone, secondsAhead) {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(Date.now() + secondsAhead * 1000));
}
