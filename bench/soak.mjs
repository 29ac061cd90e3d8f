// The week-unattended soak of `make soak`: the real window under Xvfb for
// SOAK_MINUTES (default 120) on a kiosk rotation that celebrates on every
// visit to /whattimeisit (debug mode: 10 s after each load) while an
// article is edited every 2 minutes, so the live news pages update. The
// memory of the whole process group (Go + WebKit) is sampled every minute.
// Prints, and appends to SOAK_RESULTS (default docs/SOAK.md), the
// baseline from minute 10, the growth after it (means of 10 minutes, see
// soak-figures.mjs) and the least-squares slope;
// exits 1 when the growth is over SOAK_MAX_GROWTH % (default 3).
// SOAK_ARGS adds flags to the window, like "--max-memory 1.5GB".
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  groupRSS,
  lastWords,
  startDesktop,
  startXvfb,
} from '../frontend/e2e-desktop/desktop-harness.mjs';
import { soakFigures } from './soak-figures.mjs';

const minutes = Number(process.env.SOAK_MINUTES ?? 120);
const maxGrowth = Number(process.env.SOAK_MAX_GROWTH ?? 3);
const results = process.env.SOAK_RESULTS ?? new URL('../docs/SOAK.md', import.meta.url).pathname;
const extra = (process.env.SOAK_ARGS ?? '').split(' ').filter(Boolean);
// The baseline is taken once WebKit has warmed up: minute 10, or a third of
// a shorter run (a short run only proves the harness works).
const baselineMinute = Math.min(10, Math.max(1, Math.floor(minutes / 3)));
const newsEveryMs = 120_000;
const args = [
  '--kiosk',
  '--rotate',
  '/whattimeisit,/news,/news/build-season-by-the-numbers,/',
  '--every',
  '30s',
  ...extra,
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (kib) => (kib / 1024).toFixed(1);

const xvfb = await startXvfb();
const app = startDesktop(xvfb.display, args);
let edits = 0;
const writeNews = () => {
  edits++;
  writeFileSync(
    join(app.dataDir, 'news', 'soak-update.md'),
    `---\ntitle: "Soak update ${edits}"\ndate: 2026-11-21T09:00:00-05:00\n---\nEdit number ${edits}, at ${new Date().toISOString()}.\n`,
  );
};
let newsTimer;
try {
  await app.waitForLog(/msg=page route=\/whattimeisit/);
  const start = Date.now();
  writeNews();
  newsTimer = setInterval(writeNews, newsEveryMs);
  const samples = []; // {minute, kib}
  for (let minute = 0; minute <= minutes; minute++) {
    await sleep(Math.max(0, start + minute * 60_000 - Date.now()));
    const kib = await groupRSS(app.pid);
    samples.push({ minute, kib });
    console.error(`soak: minute ${minute}: ${mib(kib)} MiB`);
  }
  const log = app.log();
  const celebrations = (log.match(/route=\/whattimeisit[^\n]*headings="What time is it\?"/g) ?? [])
    .length;
  const visits = (log.match(/msg=page route=\/whattimeisit[^\n]*headings=Countdown/g) ?? []).length;
  const newsSeen = new Set(log.match(/Soak update \d+/g) ?? []).size;
  const reloads = (log.match(/memory guard: reloading the page/g) ?? []).length;
  const f = soakFigures(samples, baselineMinute);
  const growth = f.growth;
  const ok = growth <= maxGrowth;
  const report = `## Soak, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${minutes} min

Command: \`make soak\` (\`node bench/soak.mjs\`; SOAK_MINUTES=${minutes}).
The window runs \`robohornets ${args.join(' ')}\`; an article is edited every ${newsEveryMs / 60_000} min.

| figure | value | goal |
|---|---|---|
| memory of the process group (Go + WebKit), mean of minutes ${baselineMinute}–${baselineMinute + f.window - 1} (baseline) | ${mib(f.base)} MiB | |
| mean of the last ${f.window} minutes | ${mib(f.end)} MiB (peak ${mib(f.peak)} MiB) | |
| growth after the baseline (means of ${f.window} minutes) | ${growth.toFixed(1)} % | ≤ ${maxGrowth} % ${ok ? '(met)' : '(**not met**)'} |
| the same from one sample to one sample (minute ${baselineMinute} to ${minutes}) | ${f.lastGrowth.toFixed(1)} % | |
| least-squares slope after the baseline | ${f.perHour.toFixed(2)} % per hour | flat |
| visits to /whattimeisit / celebrations seen | ${visits} / ${celebrations} | |
| article edits written / seen on a page | ${edits} / ${newsSeen} | |
| memory guard reloads | ${reloads} | |

Samples (minute: MiB): ${samples.map((s) => `${s.minute}: ${mib(s.kib)}`).join(', ')}
`;
  console.log(report);
  appendFileSync(results, `${report}\n`);
  if (!ok) process.exitCode = 1;
} catch (err) {
  console.error(`the window's log, last lines:\n${lastWords(app)}`);
  throw err;
} finally {
  clearInterval(newsTimer);
  await app.stop();
  await xvfb.stop();
}
