// The replay server of the event APIs (cmd/replayd): FRC
// Nexus and The Blue Alliance in their documented shapes, played from a
// timeline, for the pit display's end-to-end tests.
import { spawn } from 'node:child_process';
import { outputLine, startServer } from './harness.mjs';

/** The replay server binary: $ROBOHORNETS_REPLAYD, else the one make builds. */
export const replaydBinary =
  process.env.ROBOHORNETS_REPLAYD ?? new URL('../../build/bin/replayd', import.meta.url).pathname;

/** The keys replayd accepts by default (replay.DefaultNexusKey and DefaultTBAKey). */
export const replayKeys = { NEXUS_API_KEY: 'replay-nexus-key', TBA_API_KEY: 'replay-tba-key' };

/**
 * Starts replayd with timeline ("demo" or a JSON file), or a real past
 * event ({dir, team, at}), on listen (default a free port) and resolves
 * once it accepts connections. The result has the
 * base URLs to pass as --nexus-url and --tba-url, the environment with the
 * keys, control(fault) to make both APIs fail ("down", "500", "slow",
 * "malformed", "huge") or serve again (""), and stop().
 */
export async function startReplay({
  timeline = 'demo',
  loop = false,
  listen = '127.0.0.1:0',
  real,
} = {}) {
  const args = ['-listen', listen, '-timeline', timeline];
  if (loop) args.push('-loop');
  // A real past event (TBA's saved answers) as it was at a moment, for a team.
  if (real) args.push('-real', real.dir, '-team', String(real.team), '-at', real.at);
  const child = spawn(replaydBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const [, url] = await outputLine(
    child,
    'replayd says it listens',
    /listening on (http:\/\/\S+)/,
    10000,
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url,
    args: ['--nexus-url', `${url}/nexus/api/v1`, '--tba-url', `${url}/tba/api/v3`],
    env: replayKeys,
    async control(fault) {
      const res = await fetch(`${url}/control`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ fault }),
      });
      if (!res.ok) throw new Error(`replayd /control ${fault}: ${res.status}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts the replay server on the bundled demo and `serve` reading it as
 * event 2026demo: the site of the pit display's tests (fixtures.mjs's ownSite).
 */
export async function startPitSite() {
  const upstream = await startReplay({ timeline: 'demo' });
  const server = await startServer({
    extraArgs: ['--event', '2026demo', ...upstream.args],
    env: upstream.env,
  });
  return { upstream, server };
}

/** Stops what startPitSite started. */
export async function stopPitSite(site) {
  await site.server.stop();
  await site.upstream.stop();
}
