// axe-core on every route at both sizes: no serious or critical violation.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { after, before, describe, it } from 'node:test';
import { openPage, specRoutes, startSite, stopSite, viewports } from './harness.mjs';

describe('accessibility', () => {
  let server;
  let browser;
  before(async () => ({ server, browser } = await startSite()));
  after(() => stopSite({ server, browser }));

  for (const [name, viewport] of Object.entries(viewports)) {
    it(`has no serious or critical axe violations on any route at ${name} size`, async () => {
      const found = [];
      // /pit here has no event configured: its setup panel.
      for (const path of [...specRoutes, '/pit']) {
        const { page, context } = await openPage(browser, server, path, viewport);
        try {
          await page.locator('main#main h1').first().waitFor();
          // The season page's video is YouTube's frame, not ours (and offline here).
          const { violations } = await new AxeBuilder({ page }).exclude('iframe').analyze();
          for (const v of violations) {
            if (v.impact === 'serious' || v.impact === 'critical') {
              found.push(`${path}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
            }
          }
        } finally {
          await context.close();
        }
      }
      assert.deepEqual(found, []);
    });
  }
});
