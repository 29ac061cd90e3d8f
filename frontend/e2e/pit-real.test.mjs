// The pit display through a real past event, end to end: replayd plays
// 2024nytr (TBA's saved answers) as it was at a moment, `serve --event
// 2024nytr --team 3360` reads it through the real hub, and /pit must show
// what 3360's crew faced then (the rank forecast mid-quals, the playoff
// record mid-playoffs), fitting a 1920×1080 and a 1280×720 screen.
// 3360 was the first pick of Alliance 2: it won Playoff 3, lost Playoff 8,
// won Playoffs 10 and 12 and went out in Playoff 13.
import assert from 'node:assert/strict';
import { assertFits, openPage, saveScreenshot, screens, startServer } from './harness.mjs';
import { startReplay } from './replay.mjs';
import { expect, test } from './fixtures.mjs';

const dir = new URL('../../internal/testutil/realevent/testdata/2024nytr', import.meta.url)
  .pathname;

const moments = [
  {
    at: 'quals',
    phase: 'qualifications',
    // The rank forecast, from the score breakdowns of the results out then.
    shows: [/Qualification \d+/, /Top 8: (\d+%|> 99%|< 1%) · likely \d+(st|nd|rd|th)/],
  },
  { at: 'alliances', phase: 'selection', shows: [/Alliance 2/, /first pick/i] },
  {
    at: 'playoffs',
    phase: 'playoffs',
    shows: [
      /Playoff 10/,
      /Playoff record 1-1-0 \(Round 2\)/,
      /If we win → Playoff 12 \(red\)/,
      /If we lose → eliminated/i,
      /Alliance 8/,
    ],
  },
  { at: 'eliminated', phase: 'playoffs', shows: [/Eliminated in Round 5/, /3-2-0/] },
];

test.describe('pit display through a real past event', () => {
  // Each moment has its own replay server and serve.
  test.describe.configure({ mode: 'parallel' });
  for (const m of moments) {
    test(`at ${m.at}: shows what team 3360 faced`, async ({ browser }) => {
      const upstream = await startReplay({ real: { dir, team: 3360, at: m.at } });
      const server = await startServer({
        extraArgs: ['--event', '2024nytr', '--team', '3360', ...upstream.args],
        env: upstream.env,
      });
      try {
        for (const viewport of [screens.hd, screens.tv720]) {
          const { page, context } = await openPage(browser, server, '/pit', viewport);
          try {
            await expect(page.locator('section.pit'), `the ${m.phase} view`).toHaveAttribute(
              'data-phase',
              m.phase,
              { timeout: 20_000 },
            );
            const text = await page.locator('section.pit').innerText();
            for (const re of m.shows)
              assert.match(text, re, `at ${m.at} (${viewport.width}x${viewport.height})`);
            await assertFits(page, `/pit at ${m.at}, ${viewport.width}x${viewport.height}`);
            await saveScreenshot(page, `pit-real-${m.at}-${viewport.width}x${viewport.height}`);
          } finally {
            await context.close();
          }
        }
      } finally {
        await server.stop();
        await upstream.stop();
      }
    });
  }
});
