// Fails when the JS and CSS that / loads before any lazy chunk exceed the
// budget, gzip-compressed: the entry script, its modulepreloads and stylesheets.
// Then reports what each chunk loaded on demand (a route, the desktop
// platform, the kiosk layer) adds when its page opens: its JS and CSS with
// the shared chunks it needs that the first load does not already have.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const budgetBytes = 100 * 1024;
// What a page loaded on demand may add, gzip (its JS, CSS and the shared
// chunks / has not loaded): issue 37 holds the follow page to 15 KB.
const chunkBudgets = new Map([['follow', 15 * 1024]]);
const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
if (files.length === 0) throw new Error('bundle-budget: no assets referenced by dist/index.html');

const gzipped = new Map();
/** The gzip size of dist/file (level 9, as the server's .gz files). */
function gzipSize(file) {
  if (!gzipped.has(file)) {
    gzipped.set(file, gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length);
  }
  return gzipped.get(file);
}
const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(7);

let total = 0;
for (const f of files) {
  const size = gzipSize(f);
  total += size;
  console.log(`${kb(size)} KB  ${f}`);
}
console.log(`${kb(total)} KB  total for / (budget ${budgetBytes / 1024} KB gzip)`);

// Vite writes each dynamic import of a chunk as
//   import(`./page-HASH.js`), __vite__mapDeps([i, j, …])
// where __vite__mapDeps's list names the files (itself, its shared chunks and
// style sheets) by index; an import with no dependencies has [] instead.
const loaded = new Set(files);
const onDemand = new Map();
for (const entry of files.filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(new URL(entry, dist), 'utf8');
  const list = /__vite__mapDeps=.*?m\.f=(\[[^\]]*\])/.exec(code);
  const deps = list ? JSON.parse(list[1]) : [];
  for (const m of code.matchAll(
    /import\([`'"]\.\/([^`'"]+\.js)[`'"]\)(?:,__vite__mapDeps\(\[([\d,]*)\]\))?/g,
  )) {
    const chunk = `assets/${m[1]}`;
    const needs = m[2] ? m[2].split(',').map((i) => deps[Number(i)]) : [chunk];
    if (needs.some((f) => f === undefined)) throw new Error(`bundle-budget: cannot read ${entry}`);
    onDemand.set(
      chunk,
      [...new Set([chunk, ...needs])].filter((f) => !loaded.has(f)),
    );
  }
}
if (onDemand.size === 0) {
  throw new Error('bundle-budget: found no chunk loaded on demand (has Vite changed its output?)');
}
const overBudget = [];
console.log('\nloaded on demand (gzip, KB; shared = chunks the page needs that / has not loaded)');
console.log(`${['JS', 'CSS', 'shared', 'total'].map((h) => h.padStart(7)).join(' ')}  chunk`);
for (const [chunk, needs] of [...onDemand].sort(([a], [b]) => a.localeCompare(b))) {
  const js = gzipSize(chunk);
  const css = needs.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gzipSize(f), 0);
  const shared = needs
    .filter((f) => f.endsWith('.js') && f !== chunk)
    .reduce((n, f) => n + gzipSize(f), 0);
  const name = chunk.replace(/^assets\/(.+)-[\w-]{8}\.js$/, '$1');
  const budget = chunkBudgets.get(name);
  const over = budget !== undefined && js + css + shared > budget;
  const note = budget === undefined ? '' : ` budget ${budget / 1024} KB${over ? ' OVER' : ''}`;
  console.log(
    `${kb(js)} ${kb(css)} ${kb(shared)} ${kb(js + css + shared)}  ${name} (${chunk})${note}`,
  );
  if (over) overBudget.push(name);
  chunkBudgets.delete(name);
}
if (chunkBudgets.size > 0) {
  throw new Error(`bundle-budget: no chunk loaded on demand named ${[...chunkBudgets.keys()]}`);
}

if (total > budgetBytes || overBudget.length > 0) {
  console.error(
    `bundle-budget: over budget (${[...(total > budgetBytes ? ['/'] : []), ...overBudget].join(', ')})`,
  );
  process.exit(1);
}
