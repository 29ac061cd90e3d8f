// Static serving side by side, run by `make bench`: wrk against `serve` and
// against nginx (gzip_static on, 2 workers) serving the same frontend/dist,
// alternating in one run, on a hashed JS asset, on `/` and on /api/news
// (nginx serves the same JSON as a file). Prints a markdown section with the
// median requests/s of BENCH_RUNS runs (default 5) of BENCH_SECONDS (default
// 5) each and the ratio; exits 1 when serve is below 0.9× nginx on any
// target or any run had errors.
import { spawn, execFile } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { freePort, startServe } from './serve.mjs';
import { summaryRow } from './summary.mjs';

const run = promisify(execFile);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const goal = 0.9;
const wrkArgs = ['-t2', '-c64', `-d${seconds}s`, '-H', 'Accept-Encoding: gzip'];
const dist = new URL('../dist', import.meta.url).pathname;

async function startNginx(root) {
  const port = await freePort();
  const conf = join(root, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 2;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 1024; }
http {
  access_log ${root}/access.log;
  client_body_temp_path ${root}/tmp;
  proxy_temp_path ${root}/tmp;
  fastcgi_temp_path ${root}/tmp;
  uwsgi_temp_path ${root}/tmp;
  scgi_temp_path ${root}/tmp;
  types { text/html html; application/javascript js; text/css css; image/svg+xml svg; application/json json; }
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root}/www;
    gzip_static on;
    location = /api/news { default_type application/json; try_files /api/news.json =404; }
    location / { try_files $uri /index.html; }
  }
}
`,
  );
  mkdirSync(join(root, 'tmp'));
  const child = spawn('nginx', ['-c', conf, '-p', root, '-g', 'daemon off;'], { stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      if (res.ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function wrk(url) {
  const { stdout } = await run('wrk', [...wrkArgs, url], { maxBuffer: 1 << 20 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? '0';
  const socket = /Socket errors: (.*)/.exec(stdout)?.[1];
  return { rps, errors: Number(errors), socket };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'serve-vs-nginx-'));
// nginx's workers drop root for nobody, who must be able to read the files.
chmodSync(work, 0o755);
let serve;
let nginx;
try {
  serve = await startServe(join(work, 'data'));
  // nginx serves the very bytes serve sends: the build, and the JSON of the
  // news list, each with a gzip sibling for gzip_static.
  const www = join(work, 'www');
  cpSync(dist, www, { recursive: true });
  const index = Buffer.from(await (await fetch(`${serve.url}/`)).arrayBuffer());
  writeFileSync(join(www, 'index.html'), index);
  writeFileSync(join(www, 'index.html.gz'), gzipSync(index, { level: 9 }));
  mkdirSync(join(www, 'api'));
  const list = Buffer.from(await (await fetch(`${serve.url}/api/news`)).arrayBuffer());
  writeFileSync(join(www, 'api', 'news.json'), list);
  writeFileSync(join(www, 'api', 'news.json.gz'), gzipSync(list, { level: 9 }));
  nginx = await startNginx(work);

  // The biggest hashed script: the app's entry chunk.
  const asset = readdirSync(join(dist, 'assets'))
    .filter((n) => n.endsWith('.js'))
    .sort(
      (a, b) => statSync(join(dist, 'assets', b)).size - statSync(join(dist, 'assets', a)).size,
    )[0];
  const targets = [
    { name: `hashed asset /assets/${asset}`, path: `/assets/${asset}` },
    { name: '`/` (index.html with its head)', path: '/' },
    { name: '`/api/news`', path: '/api/news' },
  ];
  const rows = [];
  let failed = false;
  for (const target of targets) {
    const figures = { serve: [], nginx: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, srv] of [
        ['serve', serve],
        ['nginx', nginx],
      ]) {
        const r = await wrk(srv.url + target.path);
        if (r.errors > 0 || r.socket) {
          failed = true;
          console.error(
            `${name} ${target.path}: ${r.errors} non-2xx, socket errors: ${r.socket ?? 'none'}`,
          );
        }
        figures[name].push(r.rps);
      }
    }
    const s = median(figures.serve);
    const n = median(figures.nginx);
    const ratio = s / n;
    if (ratio < goal) failed = true;
    rows.push(
      `| ${target.name} | ${Math.round(s)} | ${Math.round(n)} | ${ratio.toFixed(2)}× | ≥ ${goal}× |`,
    );
    summaryRow({
      figure: `serve requests/s on ${target.name}`,
      value: `${ratio.toFixed(2)}× nginx (${Math.round(s)}/s)`,
      goal: `≥ ${goal}×`,
      anchor: `nginx ${Math.round(n)}/s`,
      met: ratio >= goal,
    });
    console.error(
      `${target.path}: serve ${figures.serve.map(Math.round)} nginx ${figures.nginx.map(Math.round)}`,
    );
  }
  console.log(`## Static serving: \`serve\` against nginx

Command: \`make bench\` (\`cd frontend && node bench/serve-vs-nginx.mjs\`): \`wrk ${wrkArgs.join(' ')}\` on loopback, ${runs} runs per target alternating serve and nginx (${'`'}gzip_static on${'`'}, 2 workers, the same \`frontend/dist\` and the same JSON as a file), medians of requests/s. Both write their access log to a file; serve runs on the local store.

| target | serve req/s | nginx req/s | ratio | goal |
|---|---|---|---|---|
${rows.join('\n')}
`);
  if (failed) {
    console.error('serve-vs-nginx: goal not met or errors (see above)');
    process.exitCode = 1;
  }
} finally {
  serve?.stop();
  nginx?.stop();
  await new Promise((r) => setTimeout(r, 300));
  rmSync(work, { recursive: true, force: true });
}
