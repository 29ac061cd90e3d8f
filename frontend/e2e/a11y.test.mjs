// axe-core on every route at both sizes: no serious or critical violation.
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { specRoutes, viewports } from './harness.mjs';
import { test } from './fixtures.mjs';

test.describe('accessibility', () => {
  // Each page on its own: they may run in any worker.
  test.describe.configure({ mode: 'parallel' });

  for (const [name, viewport] of Object.entries(viewports)) {
    // /pit here has no event configured: its setup panel.
    for (const path of [...specRoutes, '/pit']) {
      test(`has no serious or critical axe violations on ${path} at ${name} size`, async ({
        site,
      }) => {
        await site.open(path, viewport, async ({ page }) => {
          await page.locator('main#main h1').first().waitFor();
          // The season page's video is YouTube's frame, not ours (and offline here).
          const { violations } = await new AxeBuilder({ page }).exclude('iframe').analyze();
          const found = violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
          assert.deepEqual(found, []);
        });
      });
    }
  }
});
