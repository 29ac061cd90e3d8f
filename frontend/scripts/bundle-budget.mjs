// Fails when the JS and CSS that / loads before any lazy chunk exceed the
// budget, gzip-compressed: the entry script, its modulepreloads and stylesheets.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const budgetBytes = 100 * 1024;
const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
if (files.length === 0) throw new Error('bundle-budget: no assets referenced by dist/index.html');
let total = 0;
for (const f of files) {
  const size = gzipSync(readFileSync(new URL(f, dist)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${f}`);
}
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  total for / (budget ${budgetBytes / 1024} KB gzip)`,
);
if (total > budgetBytes) {
  console.error('bundle-budget: over budget');
  process.exit(1);
}
