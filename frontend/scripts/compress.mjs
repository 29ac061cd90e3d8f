// Writes .br and .gz siblings for every compressible file in dist/, so the Go
// server can send precompressed bytes without compressing per request.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const compressible = /\.(js|css|html|svg|json|txt|xml|webmanifest)$/;
const minBytes = 1024;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    if (!compressible.test(name)) continue;
    const data = readFileSync(path);
    if (data.length < minBytes) continue;
    writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }),
    );
  }
}

walk(new URL('../dist', import.meta.url).pathname);
