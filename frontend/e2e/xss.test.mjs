// XSS end to end: the known payloads of
// internal/news/testdata/xss/corpus.json stored as news with the real `news`
// command, and a hostile event (e2e/fixtures/hostile-event.json) played by
// the replay server, in Chromium. On the news list, every article and /pit:
// no dialog, no Content-Security-Policy violation, no page error, no payload
// ran, nothing live in the page, and a link of a forbidden scheme shown as
// its text. Each page is also read with the policy switched off, so the
// proof does not lean on it: what the server sends must be inert by itself.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binary, openPage, startServer } from './harness.mjs';
import { startReplay } from './replay.mjs';
import { expect, test } from './fixtures.mjs';

const corpus = JSON.parse(
  readFileSync(new URL('../../internal/news/testdata/xss/corpus.json', import.meta.url), 'utf8'),
).payloads;
const hostileEventFile = new URL('./fixtures/hostile-event.json', import.meta.url).pathname;
const hostileEvent = JSON.parse(readFileSync(hostileEventFile, 'utf8'));

/** The article a payload is stored as. */
const articleOf = (p, i) => ({
  id: `xss-${p.name}`,
  title: p.title ?? `Payload ${p.name}`,
  // A minute apart, newer than the sample articles, in the corpus's order;
  // in the past, since a date to come schedules an article for then.
  date: new Date(Date.UTC(2026, 10, 22, 12, i)).toISOString(),
});

/** The two ways every page is read: under the site's policy, and with it switched off. */
const modes = [
  { name: 'with the Content-Security-Policy', options: {} },
  { name: 'with the Content-Security-Policy switched off', options: { bypassCSP: true } },
];

/**
 * Runs in every frame before its scripts: alert, confirm and prompt, which
 * the payloads call if they ever run, set window.__xss in the top window.
 */
function markDialogs() {
  for (const name of ['alert', 'confirm', 'prompt']) {
    const original = window[name];
    window[name] = function (...args) {
      try {
        window.top.__xss = true;
      } catch {
        window.__xss = true;
      }
      return original.apply(this, args);
    };
  }
}

/**
 * Runs in the page: everything live that the site itself never writes, as
 * readable lines. Anywhere in the document: an on* attribute, a URL
 * attribute whose scheme is not http, https or mailto (images: also data:
 * raster images), a script that is not the site's bundle or a JSON data
 * block, a frame, object, embed, form, base or meta refresh. In each of
 * content's containers, an element outside its allow list, or any of its
 * deny selector.
 */
function liveMarkup(content) {
  const out = [];
  const show = (el) => el.outerHTML.slice(0, 160);
  const allowedURL = (el, name, value) => {
    let protocol;
    try {
      protocol = new URL(value, document.baseURI).protocol;
    } catch {
      return true; // the browser cannot follow it either
    }
    if (['http:', 'https:', 'mailto:'].includes(protocol)) return true;
    return (
      el.localName === 'img' &&
      name === 'src' &&
      /^data:image\/(png|gif|jpeg|webp)[;,]/i.test(value.trim())
    );
  };
  const urlAttributes = 'href src action formaction xlink:href data poster background'.split(' ');
  for (const el of document.querySelectorAll('*')) {
    for (const { name, value } of el.attributes) {
      if (name.startsWith('on')) out.push(`${name} handler: ${show(el)}`);
      if (name === 'srcdoc') out.push(`srcdoc: ${show(el)}`);
      if (urlAttributes.includes(name) && !allowedURL(el, name, value)) {
        out.push(`${name}=${JSON.stringify(value)}: ${show(el)}`);
      }
    }
  }
  for (const s of document.scripts) {
    const bundle =
      s.type === 'module' &&
      new URL(s.src || '/', document.baseURI).pathname.startsWith('/assets/');
    if (!bundle && s.type !== 'application/json') out.push(`script: ${show(s)}`);
  }
  for (const el of document.querySelectorAll(
    'iframe, frame, object, embed, form, base, meta[http-equiv]',
  )) {
    out.push(`element: ${show(el)}`);
  }
  for (const { selector, allow, deny } of content) {
    for (const box of document.querySelectorAll(selector)) {
      for (const el of box.querySelectorAll('*')) {
        if (allow && !allow.includes(el.localName))
          out.push(`<${el.localName}> in ${selector}: ${show(el)}`);
      }
      if (deny) for (const el of box.querySelectorAll(deny)) out.push(`${selector}: ${show(el)}`);
    }
  }
  return out;
}

/** The elements the markdown renderer writes (internal/news/render.go). */
const renderedElements = `p br hr blockquote pre h1 h2 h3 h4 h5 h6 strong em del ul ol li
  table thead tbody tr th td code a img input`.split(/\s+/);

/** What a news page may hold where article data goes: rendered markdown, and titles as plain text. */
const newsContent = [
  { selector: '.news-article__body, .news-item__preview', allow: renderedElements },
  { selector: '#article-title, .news-item__title', allow: [] },
];

/**
 * Opens a page that watches for what a payload would do (dialogs, the
 * mark of markDialogs, page errors, policy violations), started on
 * /healthz, which has no content, so the watch is in place before any page
 * under test loads. check(path, ready, content) then loads one page, waits
 * for ready(page), and returns its problems as lines (liveMarkup's content
 * says where data goes on that page).
 */
async function watchedPage(browser, server, options) {
  const { page, context, errors, cspViolations } = await openPage(
    browser,
    server,
    '/healthz',
    undefined,
    options,
  );
  await context.addInitScript(markDialogs);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()} "${d.message()}"`);
    d.dismiss().catch(() => {});
  });
  const check = async (path, ready, content) => {
    dialogs.length = 0;
    errors.length = 0;
    await page.goto(server.url + path, { waitUntil: 'networkidle' });
    await ready(page);
    const problems = [
      ...dialogs.map((d) => `dialog ${d}`),
      ...(await cspViolations()).map((v) => `CSP: ${v}`),
      // Failed loads (an image of a broken path) are console errors too;
      // only a page error is a script going wrong.
      ...errors.filter((e) => e.startsWith('pageerror')),
      ...((await page.evaluate(() => window.__xss === true)) ? ['a payload called alert'] : []),
      ...(await page.evaluate(liveMarkup, content)).map((l) => `live: ${l}`),
    ];
    return problems.map((p) => `${path}: ${p}`);
  };
  return { page, context, check };
}

test.describe('XSS: the payload corpus stored as news', () => {
  let server;
  let browser;
  let dataDir;
  test.beforeAll(async ({ browser: workers }) => {
    dataDir = mkdtempSync(join(tmpdir(), 'robohornets-xss-'));
    corpus.forEach((p, i) => {
      const a = articleOf(p, i);
      execFileSync(
        binary,
        ['news', '--data', dataDir, 'add', '--title', a.title, '--id', a.id, '--date', a.date, '-'],
        { input: p.markdown, stdio: ['pipe', 'ignore', 'pipe'] },
      );
    });
    server = await startServer({ dataDir });
    browser = workers;
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test(`stores ${corpus.length} payloads, 30 or more`, () => {
    assert.ok(corpus.length >= 30, `only ${corpus.length} payloads`);
  });

  for (const mode of modes) {
    test(`runs nothing on the news list and the ${corpus.length} articles, ${mode.name}`, async () => {
      const problems = [];
      const list = await watchedPage(browser, server, mode.options);
      try {
        const newest = articleOf(corpus.at(-1), corpus.length - 1).title;
        problems.push(
          ...(await list.check(
            '/news',
            (p) => p.locator('.news-item__title', { hasText: newest }).waitFor(),
            newsContent,
          )),
        );
        const listed = await list.page.locator('.news-item__title').allTextContents();
        for (const [i, p] of corpus.entries()) {
          const { title } = articleOf(p, i);
          if (!listed.includes(title))
            problems.push(`/news: the title ${JSON.stringify(title)} is not shown as text`);
        }
      } finally {
        await list.context.close();
      }

      // The articles, a few pages at a time: each waits for the network to
      // settle, so that a payload that would run late (an image's onerror)
      // has had its chance.
      const queue = [...corpus.entries()];
      const worker = async () => {
        const { page, context, check } = await watchedPage(browser, server, mode.options);
        try {
          for (let item = queue.shift(); item; item = queue.shift()) {
            const [i, p] = item;
            const { id, title } = articleOf(p, i);
            const path = `/news/${id}`;
            problems.push(
              ...(await check(path, (pg) => pg.locator('#article-title').waitFor(), newsContent)),
            );
            const shownTitle = await page.locator('#article-title').textContent();
            if (shownTitle !== title)
              problems.push(
                `${path}: title shown as ${JSON.stringify(shownTitle)}, want the text ${JSON.stringify(title)}`,
              );
            const body = page.locator('.news-article__body');
            const text = await body.innerText();
            const linkTexts = await body.locator('a').allInnerTexts();
            for (const words of p.text ?? []) {
              if (!text.includes(words))
                problems.push(`${path}: ${JSON.stringify(words)} is not shown`);
              if (linkTexts.some((l) => l.includes(words)))
                problems.push(`${path}: ${JSON.stringify(words)} is still a link`);
            }
          }
        } finally {
          await context.close();
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      assert.deepEqual(problems, []);
    });
  }
});

test.describe('XSS: hostile event data on the pit display', () => {
  let upstream;
  let server;
  let browser;
  test.beforeAll(async ({ browser: workers }) => {
    upstream = await startReplay({ timeline: hostileEventFile });
    server = await startServer({
      extraArgs: ['--event', hostileEvent.event, ...upstream.args],
      env: upstream.env,
    });
    browser = workers;
  });
  test.afterAll(async () => {
    await server?.stop();
    await upstream?.stop();
  });

  const step = hostileEvent.steps[0];
  const next = step.nexus.matches[1];
  const us = String(hostileEvent.team);
  /** Every hostile string the page shows, each of which must appear as text. */
  const shown = [
    step.event.name,
    step.nexus.nowQueuing,
    step.pits[us],
    next.label,
    next.status,
    next.breakAfter,
    next.replayOf,
    ...next.redTeams.filter((t) => t !== us),
    ...next.blueTeams,
    ...step.announcements.map((a) => a.announcement),
    ...step.partsRequests.flatMap((p) => [p.team, p.parts]),
  ];
  /** TBA's HTML status strings, which the page never shows. */
  const tbaStatus = [
    step.teamStatus.overallStatusStr,
    step.teamStatus.allianceStatusStr,
    step.teamStatus.playoffStatusStr,
  ];

  for (const mode of modes) {
    test(`runs nothing on /pit and shows every hostile string as text, ${mode.name}`, async () => {
      const { page, context, check } = await watchedPage(browser, server, mode.options);
      try {
        const problems = await check(
          '/pit',
          (p) =>
            expect
              .poll(() => p.locator('.pit-hero__label').textContent(), {
                message: 'the hostile event on the page',
                timeout: 20000,
              })
              .toBe(next.label),
          [
            {
              selector: 'section.pit',
              deny: 'img, script, style, iframe, math, svg:not(.pit-links__code), svg:not(.pit-links__code) *',
            },
          ],
        );
        const text = await page.locator('section.pit').textContent();
        for (const s of shown) {
          if (!text.includes(s)) problems.push(`/pit: ${JSON.stringify(s)} is not shown as text`);
        }
        const all = await page.locator('body').textContent();
        for (const s of tbaStatus) {
          if (all.includes(s.replace(/<[^>]*>/g, '')))
            problems.push(`/pit: TBA's status string ${JSON.stringify(s)} is shown`);
        }
        for (const href of await page
          .locator('.pit-links__list a')
          .evaluateAll((as) => as.map((a) => a.href))) {
          if (!/^https:\/\/www\.(twitch\.tv|youtube\.com)\//.test(href))
            problems.push(`/pit: webcast link ${href}`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
