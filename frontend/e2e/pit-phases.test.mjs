// The pit display (/pit) in every phase of an event, in Chromium against
// `serve`: each status of e2e/fixtures/pit-status (the JSON the hub sends,
// its times moved to now) comes in on the page's event stream, and the board
// must fit the first screen at 720p, 1080p, 4K and portrait 1080×1920, its
// text readable, with no CSP violation, no console error and no serious axe
// finding. Screenshots land in screenshots/pit-<phase>-<size>.png.
//
// The replay server (cmd/replayd) plays a qualification day only so far;
// e2e/pit.test.mjs and fit.test.mjs test that day through the real hub.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { routeStatus, statusNames } from './fixtures/pit-status.mjs';
import {
  assertFits,
  openPage,
  screens,
  screenshotDir,
  viewportName,
  viewports,
} from './harness.mjs';
import { test } from './fixtures.mjs';

const sizes = [screens.tv720, screens.hd, screens.uhd, screens.portrait];

/** The phase each fixture must show (section.pit's data-phase). */
const phaseOf = {
  qualifications: 'qualifications',
  selection: 'selection',
  'selection-not-picked': 'selection',
  playoffs: 'playoffs',
  // The playoffs have begun but no match of the bracket is listed yet: the
  // alliances stand where the bracket will.
  'playoffs-starting': 'playoffs',
  finals: 'playoffs',
  eliminated: 'playoffs',
  'not-selected': 'playoffs',
  winners: 'finished',
};

/**
 * The smallest text on a screen, per 720 px of its shorter side: the fine
 * print (the OPR model, a criterion's name) is 11 px on a 720p TV, read from
 * up close; everything else is larger. It must grow with the screen.
 */
const smallestPer720 = 11;

/**
 * Runs in the page: the font sizes (px) of the visible text of the board,
 * smallest first, as { px, text }; text hidden for screen readers only is
 * left out.
 */
function textSizes() {
  const out = [];
  const walker = document.createTreeWalker(
    document.querySelector('section.pit'),
    NodeFilter.SHOW_TEXT,
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('.visually-hidden')) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push({ px: parseFloat(getComputedStyle(el).fontSize), text: text.slice(0, 40) });
  }
  return out.sort((a, b) => a.px - b.px);
}

/** Opens /pit showing the fixture status at viewport and waits for its board. */
async function openPhase(browser, server, status, viewport, options = {}) {
  const opened = await openPage(browser, server, '/pit', viewport, options, routeStatus(status));
  await opened.page.locator(`section.pit[data-phase="${phaseOf[status]}"]`).waitFor();
  return opened;
}

test.describe('pit display in every phase of the event', () => {
  test('has a fixture for every phase', () => {
    assert.deepEqual(Object.keys(phaseOf).sort(), statusNames);
  });

  for (const status of statusNames) {
    test.describe(status, () => {
      test.describe.configure({ mode: 'parallel' });
      for (const viewport of sizes) {
        test(`fits ${viewportName(viewport)}, readable, with no error or CSP violation`, async ({
          site,
        }) => {
          const { page, context, errors, cspViolations } = await openPhase(
            site.browser,
            site.server,
            status,
            viewport,
          );
          try {
            await assertFits(page, `/pit ${status}`);
            const sizesPx = await page.evaluate(textSizes);
            const floor = (smallestPer720 * Math.min(viewport.width, viewport.height)) / 720;
            const small = sizesPx.filter((s) => s.px < floor - 0.5);
            assert.deepEqual(small, [], `text under ${floor.toFixed(1)} px`);
            // The board's headline: readable across the room.
            const label = await page
              .locator('.pit-hero__label')
              .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
            assert.ok(
              label >= (40 * Math.min(viewport.width, viewport.height)) / 720,
              `headline ${label} px`,
            );
            await page.screenshot({
              path: join(screenshotDir, `pit-${status}-${viewportName(viewport)}.png`),
            });
            assert.deepEqual(await cspViolations(), []);
            assert.deepEqual(errors, []);
          } finally {
            await context.close();
          }
        });
      }

      test('has no serious or critical axe violations, on a TV and a phone', async ({ site }) => {
        const found = [];
        for (const viewport of [screens.tv720, viewports.phone]) {
          const { page, context } = await openPhase(site.browser, site.server, status, viewport);
          try {
            const { violations } = await new AxeBuilder({ page }).include('main').analyze();
            for (const v of violations) {
              if (v.impact === 'serious' || v.impact === 'critical') {
                const where = v.nodes.map((n) => n.target.join(' ')).join(', ');
                found.push(`${viewportName(viewport)}: ${v.id} (${where})`);
              }
            }
          } finally {
            await context.close();
          }
        }
        assert.deepEqual(found, []);
      });
    });
  }

  test('keeps still for prefers-reduced-motion: the urgent pill does not pulse', async ({
    site,
  }) => {
    for (const reducedMotion of ['no-preference', 'reduce']) {
      const { page, context } = await openPhase(
        site.browser,
        site.server,
        'playoffs',
        screens.tv720,
        {
          reducedMotion,
        },
      );
      try {
        const running = await page
          .locator('.pit-pill--urgent')
          .evaluate((el) => el.getAnimations().length);
        assert.equal(running > 0, reducedMotion === 'no-preference', reducedMotion);
      } finally {
        await context.close();
      }
    }
  });

  test('links our matches’ calendar at /pit/{team}.ics and the follow page, with QR codes', async ({
    site,
  }) => {
    const { page, context } = await openPhase(
      site.browser,
      site.server,
      'qualifications',
      screens.tv720,
    );
    try {
      const link = page.getByRole('link', { name: 'Add our matches to your calendar' });
      assert.equal(await link.getAttribute('href'), `${site.server.url}/pit/1209.ics`);
      const qr = page.getByRole('img', {
        name: `Our matches’ calendar: ${site.server.url}/pit/1209.ics`,
      });
      assert.equal(await qr.isVisible(), true);
      // Issue 37: the follow page, for a phone in the stands.
      const follow = page.getByRole('img', { name: `Follow us live: ${site.server.url}/follow` });
      assert.equal(await follow.isVisible(), true);
      assert.equal(await page.getByRole('img', { name: /^Our website/ }).count(), 0);
    } finally {
      await context.close();
    }
  });
});
