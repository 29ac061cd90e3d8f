// The pit's contract, seen from the page: every board Go's TestPitFixtures
// writes (testdata/*.json: every phase, both double-elimination brackets) is
// rendered here, and the words a crew reads are checked. Go fails when the
// files differ from what the board makes now; this fails when the page does
// not read them as before. So a change of the wire on one side only fails
// make check.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakePlatform } from '../../shared/test-platform';
import { PlatformContext } from '../../platform';
import type { BoardPhase } from './board';
import { contractNames, contractStatus } from '../../shared/event/fixtures';
import Pit from './pit';

/** The moment the board's fixtures are written at. */
const t0 = Date.parse('2026-03-14T15:00:00Z');

/** What each board must show: its layout, its heading and the lines a crew reads. */
const boards: Record<string, { phase: BoardPhase; heading: string; says: string[] }> = {
  'before-schedule': {
    phase: 'qualifications',
    heading: 'Next match',
    says: ['Our match schedule is not out yet'],
  },
  qualifications: {
    phase: 'qualifications',
    heading: 'Next match · Red allianceQualification 5',
    says: ['2-match turnaround', 'On deck', 'Rank 9 of 30', 'Top 8: 64% · likely 6th–11th'],
  },
  selection: {
    phase: 'selection',
    heading: 'Alliance selection · First pickAlliance 3',
    says: ['Final qualification rank 5 of 30 · 4-0-0'],
  },
  'selection-not-picked': {
    phase: 'selection',
    heading: 'Alliance selectionNot on an alliance yet',
    says: ['The alliances form on the right.'],
  },
  'selection-done': {
    phase: 'selection',
    heading: 'Alliance selection · First pickAlliance 3',
    says: ['301 · 303'],
  },
  'playoffs-upper': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue alliancePlayoff 8',
    says: [
      'Playoff record 1-0-0 (Round 1)',
      'Winner of Playoff 3',
      'If we win → Playoff 11 (blue)',
      'If we lose → Playoff 10 (red)',
    ],
  },
  'playoffs-lower': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue alliancePlayoff 6',
    says: [
      'Playoff record 0-1-0 (Round 1)',
      'Loser of Playoff 3',
      'If we win → Playoff 9 (blue)',
      'If we lose → eliminated',
    ],
  },
  'not-selected': {
    phase: 'playoffs',
    heading: 'PlayoffsNot selected — thank you',
    says: ['Thank you to every team we played with. Cheer the playoffs on!'],
  },
  eliminated: {
    phase: 'playoffs',
    heading: 'Playoffs · Alliance 3Eliminated in Round 2',
    says: ['Playoff record 0-2-0'],
  },
  'finals-0-1': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue allianceFinal 2',
    says: [
      'Playoff record 4-2-0 (Finals)',
      'Finals: 0–1, match 2',
      'Alliance 2',
      'If we win → Final 3',
      'If we lose → eliminated',
    ],
  },
  'finals-1-1': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue allianceFinal 3',
    says: ['Finals: 1–1, match 3', 'If we win → event winners', 'If we lose → eliminated'],
  },
  winners: {
    phase: 'finished',
    heading: 'Playoffs · Alliance 3Event winners',
    says: ['Playoff record 6-1-0'],
  },
  finalists: {
    phase: 'finished',
    heading: 'Playoffs · Alliance 3Finalists',
    says: ['Playoff record 4-3-0'],
  },
  'four-playoffs': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue alliancePlayoff 3',
    says: ['Alliance 1', 'If we win → Finals (red)', 'If we lose → Playoff 5 (red)'],
  },
  'four-lower': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Blue alliancePlayoff 4',
    says: [
      'Playoff record 0-1-0 (Round 1)',
      'Alliance 4',
      'If we win → Playoff 5 (blue)',
      'If we lose → eliminated',
    ],
  },
  'four-finals': {
    phase: 'playoffs',
    heading: 'Alliance 3 · Red allianceFinal 1',
    says: ['Finals: 0–0, match 1', 'If we win → Final 2', 'If we lose → Final 2'],
  },
  'four-eliminated': {
    phase: 'playoffs',
    heading: 'Playoffs · Alliance 3Eliminated in Round 2',
    says: ['Playoff record 0-2-0'],
  },
};

function show(name: string) {
  const fake = createFakePlatform(t0);
  render(
    <PlatformContext.Provider value={fake.platform}>
      <Pit />
    </PlatformContext.Provider>,
  );
  act(() => fake.pushEvent(contractStatus(name)));
}

describe('the pit reads every board Go writes', () => {
  afterEach(cleanup);

  it('has words for every board of testdata, and a board for every entry here', () => {
    expect(Object.keys(boards).sort()).toEqual(contractNames);
  });

  for (const [name, want] of Object.entries(boards)) {
    it(name, () => {
      show(name);
      expect(document.querySelector('.pit')).toHaveAttribute('data-phase', want.phase);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(want.heading);
      for (const words of want.says) expect(screen.getAllByText(words).length).toBeGreaterThan(0);
    });
  }

  it('draws the bracket sides as the board sends them: alliances, winners and losers of matches', () => {
    show('playoffs-lower');
    const labels = [...document.querySelectorAll('.pit-bm--ours')].map((li) =>
      li.getAttribute('aria-label'),
    );
    expect(labels).toEqual([
      'Playoff 4: Alliance 3 (red) vs Alliance 6 (blue), won by Alliance 6, ours',
      'Playoff 6: Loser of Playoff 3 (red) vs Alliance 3 (blue), ours',
    ]);
    const sides = [...document.querySelectorAll('.pit-bm__who')].map((s) => s.textContent);
    expect(sides).toContain('L M3');
    expect(sides).toContain('W M11');
  });

  it('names the bracket of each playoff type', () => {
    show('not-selected');
    expect(document.querySelector('.pit-bracket__type')).toHaveTextContent(
      '· Double elimination, 8 alliances',
    );
    cleanup();
    show('four-playoffs');
    expect(document.querySelector('.pit-bracket__type')).toHaveTextContent(
      '· Double elimination, 4 alliances',
    );
  });

  it('labels each match’s time by the kind the board gives it', () => {
    show('qualifications');
    const rows = [...document.querySelectorAll('.pit-matches li')].map((li) => li.textContent);
    expect(rows.some((r) => r?.includes('est.estimated'))).toBe(true);
    expect(document.querySelector('.pit-hero__time')).toHaveTextContent(
      /^Starts \d\d:\d\d estimated/,
    );
  });
});
