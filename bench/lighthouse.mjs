// Web vitals, run by `make bench`: Lighthouse (its Node API, driving Debian's
// Chromium headless) on the public pages of the static `serve` binary, with
// the mobile (default) and desktop presets. Each route × preset runs
// BENCH_LIGHTHOUSE_RUNS times (default 5), alternating, and the table shows
// the median of each figure. BENCH_LIGHTHOUSE_ROUTES (comma-separated, like
// "/,/news/{id}") runs only those routes; `{id}` is the first article of the
// server's /api/news. The reports of the last invocation stay in
// bench/lighthouse-reports/ (git-ignored). Prints a markdown section; exits 1
// when a goal is missed, listing which, and the audits that cost points.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { chromiumArgs } from '../frontend/e2e/harness.mjs';
import { startServe } from './serve.mjs';
import { writePart } from './part.mjs';

// Lighthouse and chrome-launcher are frontend's dev dependencies, installed
// once in frontend/node_modules: found from frontend/package.json, as a
// script in frontend/ would find them, rather than from this directory.
const fromFrontend = createRequire(new URL('../frontend/package.json', import.meta.url)).resolve;
const chromeLauncher = await import(fromFrontend('chrome-launcher'));
const { default: lighthouse } = await import(fromFrontend('lighthouse'));
const { default: desktopConfig } = await import(
  fromFrontend('lighthouse/core/config/desktop-config.js')
);

const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const chromePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const reportDir = new URL('./lighthouse-reports/', import.meta.url).pathname;

const allRoutes = [
  '/',
  '/news',
  '/news/{id}',
  '/crescendo',
  '/reefscape',
  '/whattimeisit',
  '/pit',
  '/follow',
];
const routes = process.env.BENCH_LIGHTHOUSE_ROUTES
  ? process.env.BENCH_LIGHTHOUSE_ROUTES.split(',')
      .map((r) => r.trim())
      .filter(Boolean)
  : allRoutes;
const presets = [
  { name: 'mobile', config: undefined, performanceGoal: 95 },
  { name: 'desktop', config: desktopConfig, performanceGoal: 98 },
];
const categories = [
  { id: 'performance', title: 'performance' },
  { id: 'accessibility', title: 'accessibility', goal: 100 },
  { id: 'best-practices', title: 'best practices', goal: 100 },
  { id: 'seo', title: 'SEO', goal: 100 },
];
const clsGoal = 0.02;
// Headless, and nothing but loopback (chrome-launcher adds its own defaults).
const chromeFlags = ['--headless=new', ...chromiumArgs];

const run = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function chromiumVersion() {
  // Debian's /usr/bin/chromium is a shell wrapper that may complain on stderr.
  const { stdout } = await run(chromePath, ['--version']);
  return stdout.trim();
}

/**
 * The audits that did not pass in the categories short of 100, by category:
 * what is weighted, and for performance also the insights and diagnostics
 * below 0.9 that explain its metrics.
 */
function lostPoints(lhr) {
  const out = [];
  for (const category of Object.values(lhr.categories)) {
    if (category.score === 1) continue;
    const audits = [];
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (audit.score === null || audit.score >= 1) continue;
      if (ref.weight === 0 && (category.id !== 'performance' || audit.score >= 0.9)) continue;
      audits.push(`${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
    if (audits.length) out.push(`${category.title}: ${audits.join('; ')}`);
  }
  return out;
}

const slug = (route) =>
  route === '/'
    ? 'home'
    : route
        .replace(/[{}]/g, '')
        .slice(1)
        .replace(/[^\w-]+/g, '-');

/**
 * One Lighthouse run of url. A run Lighthouse itself could not record (a
 * trace without its navigation start, now and then on a busy machine) is
 * run again, up to twice; a page that fails to load is not.
 */
async function audit(url, port, preset) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(
      url,
      {
        port,
        output: ['json', 'html'],
        logLevel: 'error',
        onlyCategories: categories.map((c) => c.id),
      },
      preset.config,
    );
    const code = result.lhr.runtimeError?.code;
    if (attempt === 3 || !['NO_NAVSTART', 'NO_FCP', 'PROTOCOL_TIMEOUT'].includes(code)) {
      return result;
    }
    console.error(`lighthouse ${url} ${preset.name}: ${code}; running it again`);
  }
}

const data = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
let serve;
let chrome;
try {
  serve = await startServe(data, ['--event', 'demo']);
  const list = await (await fetch(`${serve.url}/api/news`)).json();
  const articleId = list.articles?.[0]?.id;
  if (!articleId && routes.includes('/news/{id}'))
    throw new Error('GET /api/news has no article for /news/{id}');
  const resolve = (route) => route.replace('{id}', encodeURIComponent(articleId));

  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags,
    logLevel: 'error',
  });
  const results = new Map();
  let lighthouseVersion = '?';
  // Lighthouse's measure of how fast this machine is at the moment (a
  // desktop of the day scores 1000–2500): the simulated mobile figures are
  // the observed main-thread work times 4, so a busy machine costs points.
  const benchmarkIndexes = [];
  // Runs outermost, so a busy moment of the machine spreads over every route.
  for (let i = 1; i <= runs; i++) {
    for (const route of routes) {
      for (const preset of presets) {
        const key = `${route} ${preset.name}`;
        const started = Date.now();
        const { lhr, report } = await audit(serve.url + resolve(route), chrome.port, preset);
        lighthouseVersion = lhr.lighthouseVersion;
        benchmarkIndexes.push(lhr.environment.benchmarkIndex);
        const base = join(reportDir, `${slug(route)}-${preset.name}-${i}`);
        writeFileSync(`${base}.report.json`, report[0]);
        writeFileSync(`${base}.report.html`, report[1]);
        if (lhr.runtimeError) {
          throw new Error(`${key} run ${i}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        }
        const figures = {
          ...Object.fromEntries(
            categories.map((c) => [c.id, Math.round((lhr.categories[c.id]?.score ?? 0) * 100)]),
          ),
          cls: lhr.audits['cumulative-layout-shift'].numericValue,
          lcp: lhr.audits['largest-contentful-paint'].numericValue,
          tbt: lhr.audits['total-blocking-time'].numericValue,
        };
        const entry = results.get(key) ?? {
          route,
          preset,
          runs: [],
          lost: new Set(),
        };
        entry.runs.push(figures);
        const lost = lostPoints(lhr);
        for (const line of lost) entry.lost.add(line);
        results.set(key, entry);
        console.error(
          `lighthouse ${key} run ${i}/${runs} (${((Date.now() - started) / 1000).toFixed(0)} s): ` +
            `${categories.map((c) => figures[c.id]).join(' / ')}, CLS ${figures.cls.toFixed(3)}, ` +
            `LCP ${Math.round(figures.lcp)} ms, TBT ${Math.round(figures.tbt)} ms` +
            lost.map((line) => `\n  ${line}`).join(''),
        );
      }
    }
  }

  const rows = [];
  const missed = [];
  const goals = [];
  const losses = [];
  for (const { route, preset, runs: rs, lost } of results.values()) {
    const m = Object.fromEntries(
      ['cls', 'lcp', 'tbt', ...categories.map((c) => c.id)].map((k) => [
        k,
        median(rs.map((r) => r[k])),
      ]),
    );
    const where = `\`${route}\` ${preset.name}`;
    const misses = [];
    for (const c of categories) {
      const goal = c.goal ?? preset.performanceGoal;
      if (m[c.id] < goal) misses.push(`${c.title} ${m[c.id]} < ${goal}`);
    }
    if (m.cls > clsGoal) misses.push(`CLS ${m.cls.toFixed(3)} > ${clsGoal}`);
    if (misses.length) {
      missed.push(`${where}: ${misses.join(', ')}`);
      losses.push(`- ${where}: ${[...lost].join('. ')}`);
    }
    goals.push({
      what: `Lighthouse \`${route}\` ${preset.name}: performance / a11y / best practices / SEO, CLS`,
      figure: `${categories.map((c) => m[c.id]).join(' / ')}, ${m.cls.toFixed(3)}`,
      goal: `${preset.performanceGoal} / 100 / 100 / 100, ≤ ${clsGoal}`,
      met: misses.length === 0,
    });
    rows.push(
      `| \`${route}\` | ${preset.name} | ${categories.map((c) => m[c.id]).join(' | ')} | ` +
        `${m.cls.toFixed(3)} | ${(m.lcp / 1000).toFixed(2)} s | ${Math.round(m.tbt)} ms |`,
    );
  }

  writePart('lighthouse', {
    section: 'Web vitals: Lighthouse',
    command: 'node bench/lighthouse.mjs',
    goals,
    body: `Lighthouse ${lighthouseVersion} (Node API) driving ${await chromiumVersion()} headless against the static \`serve\` binary on loopback (local store with its sample news, \`--event demo\` for \`/pit\`; \`{id}\` is \`${articleId}\`, the first article of \`/api/news\`), mobile (default, simulated throttling) and desktop presets, ${runs} run${runs === 1 ? '' : 's'} per route and preset, alternating; medians of each figure (Lighthouse's benchmark index of the machine: median ${Math.round(median(benchmarkIndexes))}). Reports: \`bench/lighthouse-reports/\`. Goals: performance ≥ 95 on mobile and ≥ 98 on desktop, accessibility, best practices and SEO 100, CLS ≤ ${clsGoal}.

| route | preset | performance | accessibility | best practices | SEO | CLS | LCP | TBT |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${missed.length ? `Goals missed:\n\n${missed.map((m) => `- ${m}`).join('\n')}\n\nAudits that did not pass in at least one of their runs (for performance: its metrics, and the insights and diagnostics below 0.9):\n\n${losses.join('\n')}` : 'Every goal met.'}
`,
  });
  if (missed.length) {
    console.error(`lighthouse: goals missed:\n  ${missed.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  await chrome?.kill();
  serve?.stop();
  await sleep(300);
  rmSync(data, { recursive: true, force: true });
}
