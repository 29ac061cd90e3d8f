// The memory guard (--max-memory) in the real window: a ceiling far below
// the window's real size reloads the page at the first check (5 s after
// start), the page comes back, and no screenshot across the reload is blank
// for more than 1 s. Without the flag nothing reloads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually, startDesktop, withDesktop, xvfbForSuite } from './desktop-harness.mjs';

const run = promisify(execFile);

// A frame of the window's background only (or of nothing) has a handful of colours.
const blankBelow = 5;

/**
 * Screenshots the display one after the other (each takes a good part of
 * 200 ms) until stop() and returns [{atMs, colours}]. Colours are counted after filming: counting takes
 * longer than a frame.
 */
function filmScreen(display) {
  const dir = mkdtempSync(join(tmpdir(), 'robohornets-film-'));
  const frames = [];
  let running = true;
  const done = (async () => {
    const t0 = Date.now();
    for (let i = 0; running; i++) {
      const at = Date.now() - t0;
      // Uncompressed (PPM): a PNG's compression made a frame take seconds
      // on 2 busy cores, too slow to see a blank of 1 s.
      const file = join(dir, `${i}.ppm`);
      await run('import', ['-display', display, '-window', 'root', file]);
      frames.push({ atMs: at, file });
    }
  })();
  /** The number of colours in frame f. */
  const colours = async (f) =>
    Number((await run('convert', [f.file, '-format', '%k', 'info:'])).stdout.trim());
  return {
    /** How many frames were taken so far. */
    get taken() {
      return frames.length;
    },
    /** Whether the newest frame, if taken after the first `from`, shows more than a blank window. */
    async paintedAfter(from) {
      return frames.length > from && (await colours(frames.at(-1))) >= blankBelow;
    },
    async stop() {
      running = false;
      await done;
      for (const f of frames) f.colours = await colours(f);
      rmSync(dir, { recursive: true, force: true });
      return frames;
    },
  };
}

/**
 * The longest run of blank frames, in ms (from the first blank frame to the
 * next non-blank one), after the window first painted.
 */
function longestBlankMs(frames) {
  let longest = 0;
  let since = null;
  const painted = frames.findIndex((f) => f.colours >= blankBelow);
  for (const f of frames.slice(Math.max(painted, 0))) {
    if (f.colours < blankBelow) since ??= f.atMs;
    else if (since !== null) {
      longest = Math.max(longest, f.atMs - since);
      since = null;
    }
  }
  if (since !== null) longest = Infinity; // still blank at the end
  return longest;
}

describe('memory guard', () => {
  const xvfb = xvfbForSuite();

  it('reloads the page past the ceiling with no blank frame longer than 1 s', async (t) => {
    // At debug level the window logs each heartbeat of the page.
    const app = startDesktop(xvfb.display, ['--max-memory', '50MB', '--log-level', 'debug']);
    let film;
    try {
      await app.waitForLog(/msg=page route=\/ /);
      film = filmScreen(xvfb.display);
      const guard = await app.waitForLog(
        /msg="kiosk: memory guard: reloading the page" used_mib=([\d.]+) ceiling_mib=([\d.]+)/,
        15000,
      );
      assert.ok(Number(guard[1]) > Number(guard[2]), guard[0]);
      const reloaded = app.mark();
      const back = await app.waitForLog(/msg=page route=\/ /, 15000, reloaded);
      // Filmed on until the reloaded page's next heartbeat, up to 5 s later.
      await app.waitForLog(
        /msg=heartbeat route=\/ /,
        10000,
        reloaded + back.index + back[0].length,
      );
      // The heartbeat can come before WebKit has painted the page again:
      // filmed on until a frame shows it, so that only a blank that lasts
      // fails the check below.
      const from = film.taken;
      await eventually('a painted frame after the reload', () => film.paintedAfter(from), 3000, {
        every: 100,
      });
      const frames = await film.stop();
      film = null;
      const blank = longestBlankMs(frames);
      t.diagnostic(`${guard[0]}; colours per frame: ${frames.map((f) => f.colours).join(' ')}`);
      const gaps = frames.slice(1).map((f, i) => f.atMs - frames[i].atMs);
      assert.ok(
        Math.max(...gaps) < 1000,
        `screenshots came too slowly to judge: ${Math.max(...gaps)} ms apart`,
      );
      assert.ok(
        blank <= 1000,
        `blank for ${blank} ms across the reload: ${JSON.stringify(frames.map((f) => f.colours))}`,
      );
      // Settling: no second reload right after the first.
      assert.equal(app.log().match(/memory guard: reloading/g).length, 1);
    } finally {
      await film?.stop();
      await app.stop();
    }
  });

  it('does not reload with the ceiling off (the default)', async () => {
    await withDesktop(xvfb.display, ['--log-level', 'debug'], async (app) => {
      await app.waitForLog(/msg=page route=\/ /);
      // The guard would first look 5 s after start: wait for three
      // heartbeats of the page (5 s apart), well past it.
      await eventually(
        'three heartbeats',
        () => (app.log().match(/msg=heartbeat route=\/ /g) ?? []).length >= 3,
        30000,
      );
      assert.doesNotMatch(app.log(), /memory guard/);
      assert.equal(
        app.log().match(/msg=page route=\/ /g).length,
        1,
        'the page reported itself anew',
      );
    });
  });
});
