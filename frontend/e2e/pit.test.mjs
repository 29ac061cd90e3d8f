// The pit display (/pit) in Chromium against `serve`, fed by the replay
// server playing the bundled qualification day through the real clients:
// the next match, its status and countdown, rank and record, a status change
// as it happens, a warning when upstream dies and recovery when it returns,
// and no API key anywhere. e2e/fit.test.mjs checks that it fits a screen.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { openPage, screens, screenshotDir, viewports } from './harness.mjs';
import { replayKeys, startPitSite, stopPitSite } from './replay.mjs';
import { expect, ownSite } from './fixtures.mjs';

const test = ownSite(startPitSite, stopPitSite);

test.describe('pit display', () => {
  test('shows our next match, its countdown, rank and record, and a status change as it happens', async ({
    site,
  }) => {
    const { page, context, errors } = await openPage(site.browser, site.server, '/pit', {
      width: 1280,
      height: 720,
    });
    try {
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading, 'the next match').toContainText('Qualification 14', {
        timeout: 15000,
      });
      assert.match(await heading.innerText(), /Red alliance/);
      assert.equal(await page.title(), 'RoboHornets - Pit display');
      assert.equal(await page.locator('.pit-pill').innerText(), 'Queuing soon');
      const timer = page.getByRole('timer');
      const first = await timer.innerText();
      assert.match(first, /^Queue in \d+:\d{2}$/);
      await expect(timer, 'the countdown to move').not.toHaveText(first, { timeout: 3000 });
      const board = await page.locator('section.pit').innerText();
      assert.match(board, /Rank 9 of 30/);
      assert.match(board, /3-2-0/);
      assert.match(board, /Pit B12/);
      assert.match(board, /With 4414 · 5172/);
      assert.match(board, /Data as of \d{1,2}:\d{2}.*\(.*\)/);
      assert.equal(await page.locator('a[href="https://frc.nexus"]').isVisible(), true);
      assert.equal(
        await page.locator('a[href="https://www.thebluealliance.com"]').isVisible(),
        true,
      );
      await page.screenshot({ path: join(screenshotDir, 'pit-1280x720.png') });

      // Nexus calls the match to the queue within the demo's first 30 s; the
      // poller sees it within 30 s more and the page at once.
      await expect(page.locator('.pit-pill')).toHaveText('Now queuing', { timeout: 65000 });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('has no serious or critical axe violations with live data, on a TV and a phone', async ({
    site,
  }) => {
    const found = [];
    for (const viewport of [screens.tv720, viewports.phone]) {
      const { page, context } = await openPage(site.browser, site.server, '/pit', viewport);
      try {
        await page.locator('.pit-hero__label').waitFor();
        const { violations } = await new AxeBuilder({ page }).analyze();
        for (const v of violations) {
          if (v.impact === 'serious' || v.impact === 'critical') {
            found.push(
              `${viewport.width}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
            );
          }
        }
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(found, []);
  });

  test('warns when upstream dies, keeps the last data, and recovers when it returns', async ({
    site,
  }) => {
    const { page, context } = await openPage(site.browser, site.server, '/pit', screens.tv720);
    try {
      const label = page.locator('.pit-hero__label');
      await label.waitFor();
      const before = await label.innerText();
      await site.upstream.control('down');
      const warning = page.getByRole('status').filter({ hasText: /Nexus|Blue Alliance/ });
      // The next poll (Nexus every 30 s) finds it down.
      await warning.waitFor({ timeout: 45000 });
      assert.equal(await label.innerText(), before, 'the last data left the screen');
      await page.screenshot({ path: join(screenshotDir, 'pit-upstream-down.png') });
      await site.upstream.control('');
      // The first retry comes 30–60 s after the failure.
      await warning.waitFor({ state: 'detached', timeout: 75000 });
    } finally {
      await context.close();
    }
  });

  test('never shows an API key: not in any response, the bundle or the log', async ({ site }) => {
    const keys = Object.values(replayKeys);
    const dist = new URL('../dist/', import.meta.url).pathname;
    const files = [
      'index.html',
      ...readdirSync(join(dist, 'assets'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath.slice(dist.length), e.name)),
    ];
    for (const f of files) {
      const text = readFileSync(join(dist, f), 'latin1');
      for (const key of keys) assert.ok(!text.includes(key), `${f} holds an API key`);
    }
    for (const path of [
      '/',
      '/pit',
      '/api/event',
      '/healthz',
      '/sitemap.xml',
      '/news.xml',
      '/api/news',
    ]) {
      const body = await (await fetch(site.server.url + path)).text();
      for (const key of keys) assert.ok(!body.includes(key), `${path} holds an API key`);
    }
    for (const key of keys)
      assert.ok(!site.server.log().includes(key), 'the server log holds an API key');
  });
});
