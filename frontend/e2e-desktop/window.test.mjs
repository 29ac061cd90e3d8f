// The real Wails window under Xvfb: it starts, renders the site, opens on
// --route, and shows news written while it runs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../e2e/harness.mjs';
import { screenshot, startDesktop, startXvfb } from './desktop-harness.mjs';

const shots = new URL('../screenshots/', import.meta.url).pathname;

describe('desktop window', () => {
  let xvfb;
  before(async () => {
    mkdirSync(shots, { recursive: true });
    xvfb = await startXvfb();
  });
  after(async () => {
    await xvfb?.stop();
  });

  it('renders the home page and is not blank', async () => {
    const app = startDesktop(xvfb.display);
    try {
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
    } finally {
      await app.stop();
    }
  });

  it('opens on --route', async () => {
    const app = startDesktop(xvfb.display, ['--route', '/about']);
    try {
      await app.waitForLog(/msg=page route=\/about /);
    } finally {
      await app.stop();
    }
  });
});
