// What the benchmarks share: a free loopback port, and the static `serve`
// binary started on one with its log in a file, as it would run for real.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The binary under test: $ROBOHORNETS_BIN, else the static serve-only build. */
export const serveBinary =
  process.env.ROBOHORNETS_BIN ??
  new URL('../build/bin/robohornets-server', import.meta.url).pathname;

/** Resolves with a loopback TCP port that nothing listens on. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts `serve` on a free port with its data in dir (created if missing)
 * and its log (the access log too) in dir/serve.log, and resolves once
 * /healthz answers. args are more flags.
 */
export async function startServe(dir, args = []) {
  const port = await freePort();
  const log = join(dir, 'serve.log');
  mkdirSync(dir, { recursive: true });
  // The JSON log is on stdout, a failed start's reason on stderr.
  const out = openSync(log, 'w');
  const child = spawn(
    serveBinary,
    ['serve', '--listen', `127.0.0.1:${port}`, '--data', dir, ...args],
    { stdio: ['ignore', out, out] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (i === 300 || child.exitCode !== null) {
        throw new Error(`serve did not start:\n${readFileSync(log, 'utf8')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}
