// Nothing of the pit display is cut off, on any screen (issue 36): every
// status of e2e/fixtures/pit-status and of the board (src/features/pit/
// testdata), then each board status at its worst — the longest real team
// and event names, 5-digit and 2-digit team numbers, alliances of four with
// a backup, our next match queuing, a pit notice of the longest kind and the
// stale warning — at 1280×720, the kiosk window's 1280×800, 1920×1080,
// 3840×2160, 1080×1920 and a phone at 390×844. One page per size: the
// statuses come in on its event stream one after another (as the hub sends
// them), and one evaluate per status finds, among the text a visitor can
// see, what lies outside the screen (on the phone, whose board is a column
// that scrolls, only sideways), what an ancestor that does not show all it
// holds (hidden, clip, or a scroll box: a TV does not scroll) cuts, what is
// truncated (its text wider than its box), which texts overlap, and which
// panels of the board overlap. The site footer is left out. Screenshots of the worst states
// land in screenshots/pit-fit-<state>-<size>.png, and of any that fails.
import { join } from 'node:path';
import {
  boardNames,
  fixtureT0,
  loadBoard,
  loadStatus,
  statusNames,
} from './fixtures/pit-status.mjs';
import { frames, screens, screenshotDir, viewportName, viewports } from './harness.mjs';
import { expect, test } from './fixtures.mjs';

const sizes = [
  screens.tv720,
  screens.window,
  screens.hd,
  screens.uhd,
  screens.portrait,
  viewports.phone,
];

/**
 * The longest real names: team nicknames and an event name as The Blue
 * Alliance lists them.
 */
const longNames = {
  event: 'FIRST in Michigan State Championship presented by DTE Foundation',
  teams: [
    'The F.A.S.T. Team - Fowlerville Area Scientific Technicians',
    'The Pebbles-Robotics of Kingsford',
    'Code Red Robotics the Stray Dogs',
    'That ONE Team-OurNextEngineers',
    'Duanesburg Jr./Sr. High School',
    'Bigfork Backwoods Bots 5253',
  ],
};

/** A pit notice as long as the console takes (120 characters), in force for an hour. */
function longNotice() {
  const text =
    'Team to the practice field until 14:30 with the spare bumpers, battery cart and driver station; then inspection at 15:00';
  return {
    text,
    until: new Date(Date.now() + 3_600_000).toISOString(),
    by: 'test',
    at: new Date().toISOString(),
  };
}

/** No notice in force. */
const noNotice = { text: '', until: '0001-01-01T00:00:00Z', by: '', at: '0001-01-01T00:00:00Z' };

/** Where status lists team numbers (and its alliances' backups). */
const teamKeys = new Set(['red', 'blue', 'partners', 'teams', 'team', 'backup']);

/**
 * Renumbers every team of status but ours with map, made up as new teams
 * come: 5-digit numbers, every fourth a 2-digit one.
 */
function renumber(status, map) {
  const ours = String(status.team);
  const wide = (t) => {
    if (t === '' || t === ours) return t;
    if (!map.has(t)) {
      const n = map.size;
      map.set(t, n % 4 === 3 ? String(10 + n) : String(10000 + 97 * n));
    }
    return map.get(t);
  };
  const walk = (value, key) => {
    if (Array.isArray(value)) {
      return teamKeys.has(key)
        ? value.map((v) => (typeof v === 'string' ? wide(v) : walk(v)))
        : value.map((v) => walk(v));
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return typeof value === 'string' && teamKeys.has(key) ? wide(value) : value;
  };
  return walk(status);
}

/**
 * status at its worst: renumbered, the longest names, alliances of four with
 * a backup, our next match queuing (on deck 7 minutes before its start), and
 * the data stale (6 minutes old).
 */
function worst(status) {
  const map = new Map();
  const out = renumber(status, map);
  let made = 0;
  const another = () => String(20000 + 89 * made++);
  out.eventName = longNames.event;
  out.stale = true;
  out.asOf = new Date(Date.parse(out.asOf) - 6 * 60_000).toISOString();
  for (const [i, card] of (out.teamCards ?? []).entries()) {
    card.name = longNames.teams[i % longNames.teams.length];
    card.opr = 123.4;
  }
  const playoffs = out.playoffs;
  for (const a of playoffs?.alliances ?? []) {
    if (a.teams.length === 3) {
      a.teams.push(another());
      if (a.ours) playoffs.ours?.partners?.push(a.teams[3]);
    }
    a.backup = another();
  }
  const next = out.nextMatch;
  if (next) {
    Object.assign(next, { status: 'Now queuing', step: 1, urgent: true });
    const start = Date.parse(next.times.start ?? next.when.at);
    next.times.onDeck ??= new Date(start - 7 * 60_000).toISOString();
    out.nowQueuing = next.label;
  }
  return out;
}

/** The states each size shows, in order; those with a notice last, so it comes once. */
const states = [
  ...statusNames.map((name) => ({ name: `e2e ${name}`, make: (ms) => loadStatus(name, ms) })),
  ...boardNames.map((name) => ({ name, make: (ms) => loadBoard(name, ms) })),
  ...boardNames.map((name) => ({
    name: `${name} at its worst`,
    make: (ms) => worst(loadBoard(name, ms)),
    notice: true,
    shot: true,
  })),
];

/**
 * Runs in every page before its own scripts: keeps the id of the last
 * message of each type its event streams delivered (window.__messages), so
 * that the test knows when the page has the status it sent.
 */
function noteMessages() {
  window.__messages = {};
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      for (const type of ['event', 'notice']) {
        this.addEventListener(type, (e) => {
          window.__messages[type] = Number(e.lastEventId);
        });
      }
    }
  };
}

/**
 * Answers the page's server-sent event stream at url (a route pattern) with
 * one message of type per send(data), its id the count of sends: each
 * answer ends its response, and the browser reconnects 10 ms later (the
 * stream's retry). Until settle() —
 * once the page has the message — every request gets it (the page may have
 * opened the stream again meanwhile, leaving a request nobody reads); after,
 * requests wait for the next send. The page keeps its state between
 * messages, as it does when a connection drops, so it is never reloaded.
 */
async function heldStream(context, url, type) {
  const waiting = [];
  let latest;
  let fresh = false;
  let sent = 0;
  const answer = (route) =>
    route
      .fulfill({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
        body: `retry: 10\nid: ${sent}\nevent: ${type}\ndata: ${JSON.stringify(latest)}\n\n`,
      })
      // A request the page gave up (a closed stream) takes no answer.
      .catch(() => {});
  await context.route(url, (route) => (fresh ? answer(route) : waiting.push(route)));
  return {
    /** How many messages were sent: the id of the latest. */
    get sent() {
      return sent;
    },
    send(data) {
      latest = data;
      fresh = true;
      sent++;
      waiting.splice(0).forEach(answer);
    },
    settle() {
      fresh = false;
    },
  };
}

/**
 * Runs in the page: what a visitor cannot read whole, as sentences. phone:
 * the board is a column that scrolls, so text below the first screen is
 * fine there.
 */
function cutOff(phone) {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const tol = 1;
  // Free text of any length from upstream may end short: a team's nickname
  // in an ellipsis, an announcement after three lines. A number, a label, a
  // name of ours may not.
  const mayShorten = '.pit-card__name, .pit-notice__text';
  const out = [];
  const name = (el) =>
    `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
  const outside = (r, c) =>
    r.left < c.left - tol ||
    r.right > c.right + tol ||
    r.top < c.top - tol ||
    r.bottom > c.bottom + tol;
  const seen = new Set();
  // Each visible text's line boxes (or the box of text that may end short), to find overlaps.
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (
      !text ||
      !el ||
      el.closest('.visually-hidden, .skip-link, .site-footer, script, style') ||
      !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    ) {
      continue;
    }
    const shortens = el.closest(mayShorten);
    const range = document.createRange();
    range.selectNodeContents(node);
    // Text that may end short is where its box is; other text, where it runs.
    const r = shortens ? shortens.getBoundingClientRect() : range.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    texts.push({
      owner: shortens ?? node,
      what: `${name(el)} "${text.slice(0, 20)}"`,
      rects: shortens ? [r] : [...range.getClientRects()].filter((q) => q.width > 0),
    });
    if (seen.has(el)) continue;
    seen.add(el);
    const what = `${name(el)} "${text.slice(0, 30)}"`;
    if (r.left < -tol || r.right > vw + tol || (!phone && (r.top < -tol || r.bottom > vh + tol))) {
      out.push(`${what} outside the screen`);
      continue;
    }
    for (
      let a = shortens ? shortens.parentElement : el;
      a && a !== document.body;
      a = a.parentElement
    ) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        if (outside(r, a.getBoundingClientRect())) {
          out.push(`${what} cut by ${name(a)}`);
          break;
        }
      }
      if (s.position === 'fixed') break;
    }
    if (
      !shortens &&
      (el.scrollWidth > el.clientWidth + tol || el.scrollHeight > el.clientHeight + tol)
    ) {
      const s = getComputedStyle(el);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.textOverflow === 'ellipsis') {
        out.push(
          `${what} truncated (${el.scrollWidth}×${el.scrollHeight} px of text in ${el.clientWidth}×${el.clientHeight})`,
        );
      }
    }
  }
  // Two texts overlap when a line of one covers a third of a line of the other's height.
  for (const [i, a] of texts.entries()) {
    for (const b of texts.slice(i + 1)) {
      if (a.owner === b.owner) continue;
      const hit = a.rects.some((p) =>
        b.rects.some((q) => {
          const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
          const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
          return w > tol && h > Math.min(p.height, q.height) / 3;
        }),
      );
      if (hit) out.push(`${a.what} overlaps ${b.what}`);
    }
  }
  const board = document.querySelector('section.pit');
  const panels = [...(board?.children ?? [])].filter((p) => {
    const r = p.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && p.checkVisibility();
  });
  for (const [i, p] of panels.entries()) {
    for (const q of panels.slice(i + 1)) {
      const a = p.getBoundingClientRect();
      const b = q.getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > tol && h > tol) out.push(`${name(p)} overlaps ${name(q)}`);
    }
  }
  if (document.documentElement.scrollWidth > vw) out.push('the page scrolls sideways');
  return out;
}

test.describe('pit display: nothing cut off on any screen', () => {
  // Some 40 states a size: 10 s on a quiet machine, much more on a busy one.
  test.describe.configure({ mode: 'parallel', timeout: 300_000 });
  for (const viewport of sizes) {
    test(`in every state at ${viewportName(viewport)}`, async ({ site }) => {
      const phone = viewport.width < 650;
      const context = await site.browser.newContext({ viewport });
      try {
        await context.addInitScript(noteMessages);
        const events = await heldStream(context, '**/api/event/stream', 'event');
        const notices = await heldStream(context, '**/api/notice/stream', 'notice');
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (err) => errors.push(err.message));
        /** Sends data on stream and resolves once the page has it, painted. */
        const show = async (stream, type, data) => {
          stream.send(data);
          await page.waitForFunction(([t, n]) => window.__messages[t] === n, [type, stream.sent]);
          stream.settle();
        };
        events.send(states[0].make(Date.now() - fixtureT0));
        await page.goto(`${site.server.url}/pit`);
        await page.waitForFunction(() => window.__messages.event === 1);
        events.settle();
        await page.evaluate(() => document.fonts.ready);
        const found = {};
        let noticeUp = false;
        for (const [i, state] of states.entries()) {
          if (i > 0) await show(events, 'event', state.make(Date.now() - fixtureT0));
          if (Boolean(state.notice) !== noticeUp) {
            noticeUp = Boolean(state.notice);
            await show(notices, 'notice', noticeUp ? longNotice() : noNotice);
            const line = page.locator('.pit-team-notice');
            await (noticeUp ? expect(line).not.toBeEmpty() : expect(line).toBeEmpty());
          }
          await frames(page);
          const problems = await page.evaluate(cutOff, phone);
          if (problems.length > 0) found[state.name] = problems;
          if (problems.length > 0 || state.shot) {
            const file = `pit-fit-${state.name.replaceAll(/\W+/g, '-')}-${viewportName(viewport)}.png`;
            await page.screenshot({ path: join(screenshotDir, file), fullPage: phone });
          }
        }
        expect(errors).toEqual([]);
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
    });
  }
});
