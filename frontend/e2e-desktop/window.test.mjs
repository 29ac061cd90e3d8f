// The real Wails window under Xvfb: it starts, renders the site, opens on
// --route, and shows news written while it runs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { eventually, screenshot, withDesktop, xvfbForSuite } from './desktop-harness.mjs';

const shots = new URL('../screenshots/', import.meta.url).pathname;

describe('desktop window', () => {
  before(() => mkdirSync(shots, { recursive: true }));
  const xvfb = xvfbForSuite();

  it('renders the home page and is not blank', async () => {
    await withDesktop(xvfb.display, async (app) => {
      await app.waitForLog(/msg=page route=\/ title="RoboHornets - Home"/);
      // A blank or unrendered window is one or two flat colours. The page has
      // reported itself, but X may paint a moment later: look a few times.
      await eventually(
        'the window shows the page',
        async () => {
          const colours = await screenshot(xvfb.display, join(shots, 'desktop-home.png'));
          assert.ok(colours > 50, `screenshot has only ${colours} colours: the window looks blank`);
          return true;
        },
        10000,
        { every: 250 },
      );
    });
  });

  it('opens on --route', async () => {
    await withDesktop(xvfb.display, ['--route', '/about'], async (app) => {
      await app.waitForLog(/msg=page route=\/about /);
    });
  });
});
