// Static serving side by side, run by `make bench`: wrk against `serve` and
// against nginx (gzip_static on, 2 workers) serving the same frontend/dist,
// alternating in one run, on a hashed JS asset, on `/` and on /api/news
// (nginx serves the same JSON as a file). nginx sends the same headers as
// serve (Cache-Control, Vary and the security headers, copied from serve's
// answers); the script checks that both answers carry the same ones.
// Prints a markdown section with the median requests/s of BENCH_RUNS runs
// (default 5) of BENCH_SECONDS (default 5) each and the ratio; exits 1 when
// serve is below 1.0× nginx on any target, the headers differ, or any run
// had errors.
import { spawn, execFile } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { get } from 'node:http';
import { freePort, startServe } from './serve.mjs';
import { writePart } from './part.mjs';

const run = promisify(execFile);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const goal = 1.0;
const wrkArgs = ['-t2', '-c64', `-d${seconds}s`, '-H', 'Accept-Encoding: gzip'];
const dist = new URL('../frontend/dist', import.meta.url).pathname;

// The headers both servers must send alike; nginx adds those serve sends.
const comparedHeaders = [
  'cache-control',
  'content-encoding',
  'content-length',
  'vary',
  'content-security-policy',
  'cross-origin-opener-policy',
  'permissions-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
];

// addHeaders are nginx add_header lines for the headers serve sent in res
// that nginx does not make itself.
function addHeaders(res) {
  return comparedHeaders
    .filter(
      (h) => !['content-encoding', 'content-length', 'vary'].includes(h) && res.headers.has(h),
    )
    .map((h) => `add_header ${h} "${res.headers.get(h)}" always;`)
    .join(' ');
}

async function startNginx(root, headers) {
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
    gzip_vary on;
    location = /api/news { default_type application/json; ${headers.api} try_files /api/news.json =404; }
    location /assets/ { ${headers.asset} }
    location / { ${headers.page} try_files $uri /index.html; }
  }
}
`,
  );
  mkdirSync(join(root, 'tmp'));
  const child = spawn('nginx', ['-c', conf, '-p', root, '-g', 'daemon off;'], {
    stdio: 'inherit',
  });
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      if (res.ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  // The workers, whose CPU time is nginx's work (the master only waits).
  const workers = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  return {
    url: `http://127.0.0.1:${port}`,
    pids: workers,
    stop: () => child.kill('SIGTERM'),
  };
}

// rawBody resolves with the bytes of url's body as sent with encoding (fetch
// would decompress them).
function rawBody(url, encoding) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

// cpuSeconds is the CPU time (user + system) the processes pids have used.
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    // Fields 14 and 15 of /proc/PID/stat, counted after the command's ")".
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

// wrk runs wrk against url and returns its requests/s, errors and the
// server's CPU time per request (µs) from its processes pids.
async function wrk(url, pids) {
  const before = cpuSeconds(pids);
  const { stdout } = await run('wrk', [...wrkArgs, url], {
    maxBuffer: 1 << 20,
  });
  const cpu = cpuSeconds(pids) - before;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? '0';
  const socket = /Socket errors: (.*)/.exec(stdout)?.[1];
  return {
    rps,
    cpuPerRequest: (cpu / requests) * 1e6,
    errors: Number(errors),
    socket,
  };
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
  mkdirSync(join(www, 'api'));
  for (const [path, file] of [
    ['/', 'index.html'],
    ['/api/news', 'api/news.json'],
  ]) {
    writeFileSync(join(www, file), await rawBody(`${serve.url}${path}`, 'identity'));
    writeFileSync(join(www, `${file}.gz`), await rawBody(`${serve.url}${path}`, 'gzip'));
  }

  // The biggest hashed script: the app's entry chunk.
  const asset = readdirSync(join(dist, 'assets'))
    .filter((n) => n.endsWith('.js'))
    .sort(
      (a, b) => statSync(join(dist, 'assets', b)).size - statSync(join(dist, 'assets', a)).size,
    )[0];
  const gzip = { headers: { 'Accept-Encoding': 'gzip' } };
  const served = async (url) => {
    const res = await fetch(url, gzip);
    await res.arrayBuffer();
    return res;
  };
  nginx = await startNginx(work, {
    api: addHeaders(await served(`${serve.url}/api/news`)),
    asset: addHeaders(await served(`${serve.url}/assets/${asset}`)),
    page: addHeaders(await served(`${serve.url}/`)),
  });

  const targets = [
    { name: `hashed asset /assets/${asset}`, path: `/assets/${asset}` },
    { name: '`/` (index.html with its head)', path: '/' },
    { name: '`/api/news`', path: '/api/news' },
  ];
  const rows = [];
  const goals = [];
  let failed = false;
  for (const target of targets) {
    const [a, b] = [await served(serve.url + target.path), await served(nginx.url + target.path)];
    for (const h of comparedHeaders) {
      if (a.headers.get(h) !== b.headers.get(h)) {
        failed = true;
        console.error(
          `${target.path}: ${h} differs: serve ${a.headers.get(h)}, nginx ${b.headers.get(h)}`,
        );
      }
    }
    const figures = { serve: [], nginx: [] };
    const cpu = { serve: [], nginx: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, srv, pids] of [
        ['serve', serve, [serve.pid]],
        ['nginx', nginx, nginx.pids],
      ]) {
        const r = await wrk(srv.url + target.path, pids);
        if (r.errors > 0 || r.socket) {
          failed = true;
          console.error(
            `${name} ${target.path}: ${r.errors} non-2xx, socket errors: ${r.socket ?? 'none'}`,
          );
        }
        figures[name].push(r.rps);
        cpu[name].push(r.cpuPerRequest);
      }
    }
    const s = median(figures.serve);
    const n = median(figures.nginx);
    const ratio = s / n;
    if (ratio < goal) failed = true;
    rows.push(
      `| ${target.name} | ${Math.round(s)} | ${Math.round(n)} | ${ratio.toFixed(2)}× | ≥ ${goal}× | ${median(cpu.serve).toFixed(1)} | ${median(cpu.nginx).toFixed(1)} |`,
    );
    goals.push({
      what: `serve requests/s on ${target.name}`,
      figure: `${ratio.toFixed(2)}× nginx (${Math.round(s)}/s)`,
      goal: `≥ ${goal}×`,
      anchor: `nginx ${Math.round(n)}/s`,
      met: ratio >= goal,
    });
    console.error(
      `${target.path}: serve ${figures.serve.map(Math.round)} nginx ${figures.nginx.map(Math.round)}`,
    );
  }
  writePart('serve-vs-nginx', {
    section: 'Static serving: `serve` against nginx',
    command: 'node bench/serve-vs-nginx.mjs',
    goals,
    body: `\`wrk ${wrkArgs.join(' ')}\` on loopback, ${runs} runs per target alternating serve and nginx (${'`'}gzip_static on${'`'}, 2 workers, the same \`frontend/dist\` and the same JSON as a file, the same Cache-Control, Vary and security headers, checked on each target's answer), medians of requests/s and of the server's CPU time per request (user + system of serve's process, of nginx's workers, from /proc). Both write their access log to a file; serve runs on the local store.

| target | serve req/s | nginx req/s | ratio | goal | serve CPU µs/request | nginx CPU µs/request |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`,
  });
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
