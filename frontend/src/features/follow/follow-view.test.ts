import { describe, expect, it } from 'vitest';
import { statusAt } from '../../shared/event/fixtures';
import type { SeasonEvent } from '../../platform/types';
import {
  eventDay,
  matchClocks,
  resultWord,
  seasonDates,
  seasonPlayoffText,
  seasonResult,
  seasonWhen,
  whereText,
} from './follow-view';

const t0 = Date.parse('2026-03-14T15:00:00Z');

describe('eventDay', () => {
  const status = statusAt(t0, { eventStart: '2026-03-13', eventEnd: '2026-03-15' });
  it.each([
    ['in the middle', '2026-03-14T15:00:00Z', { day: 2, of: 3 }],
    // 23:00 on the 13th in Chicago, the 14th in UTC: the event's day counts.
    ['by the event’s clock, not UTC’s', '2026-03-14T04:00:00Z', { day: 1, of: 3 }],
    ['on the last day', '2026-03-15T22:00:00Z', { day: 3, of: 3 }],
    ['before it', '2026-03-12T18:00:00Z', null],
    ['after it', '2026-03-16T18:00:00Z', null],
  ])('%s', (_name, at, want) => {
    expect(eventDay(status, Date.parse(at))).toEqual(want);
  });

  it('is null while the days are unknown', () => {
    expect(eventDay(statusAt(t0), t0)).toBeNull();
  });

  it('reads with the place, or alone', () => {
    expect(whereText({ ...status, eventPlace: 'Tulsa, OK, USA' }, t0)).toBe(
      'Tulsa, OK, USA · day 2 of 3',
    );
    expect(whereText({ ...status, eventPlace: '' }, t0)).toBe('day 2 of 3');
    expect(whereText(statusAt(t0, { eventPlace: '' }), t0)).toBe('');
  });
});

describe('matchClocks', () => {
  const start = Date.parse('2026-03-14T15:05:00Z');
  it.each([
    ['a viewer in London', 'Europe/London', { viewer: 'Sat 3:05 PM', event: 'Sat, 10:05 AM CDT' }],
    [
      'a viewer in Tokyo, a day ahead',
      'Asia/Tokyo',
      { viewer: 'Sun 12:05 AM', event: 'Sat, 10:05 AM CDT' },
    ],
    ['a viewer at the event', 'America/Chicago', { viewer: 'Sat 10:05 AM', event: null }],
    // Another zone name, the same clock: nothing more to say.
    [
      'a viewer in Winnipeg (the same offset)',
      'America/Winnipeg',
      { viewer: 'Sat 10:05 AM', event: null },
    ],
  ])('%s', (_name, viewerZone, want) => {
    expect(matchClocks(start, 'America/Chicago', { viewerZone, locale: 'en-US' })).toEqual(want);
  });

  it('shows only the viewer’s clock while the event’s zone is unknown', () => {
    expect(matchClocks(start, '', { viewerZone: 'Europe/London', locale: 'en-US' })).toEqual({
      viewer: 'Sat 3:05 PM',
      event: null,
    });
  });

  it('uses the browser’s own zone when given none', () => {
    const own = new Intl.DateTimeFormat('en-US', {
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
    }).format(start);
    expect(matchClocks(start, 'America/Chicago', { locale: 'en-US' }).viewer).toBe(own);
  });
});

describe('resultWord', () => {
  it.each([
    ['win', 'Won'],
    ['loss', 'Lost'],
    ['tie', 'Tied'],
    ['', null],
  ] as const)('%s', (result, want) => {
    expect(resultWord(result)).toBe(want);
  });
});

describe('the season', () => {
  const event = (over: Partial<SeasonEvent> = {}): SeasonEvent => ({
    key: '2026arfs',
    name: 'Fort Smith Regional',
    place: 'Fort Smith, AR, USA',
    start: '2026-03-05',
    end: '2026-03-07',
    rank: 12,
    of: 38,
    record: { wins: 5, losses: 4, ties: 0 },
    playoff: { kind: 'eliminated', alliance: 5, level: 'bracket', round: 4, record: null },
    awards: ["Judges' Award"],
    ...over,
  });

  it('says how each event went: rank, record, playoffs, awards', () => {
    expect(seasonResult(event())).toEqual([
      'Rank 12 of 38',
      '5-4-0',
      'Out in Round 4 (Alliance 5)',
      "Judges' Award",
    ]);
    expect(
      seasonResult(
        event({
          rank: 0,
          record: null,
          playoff: { kind: 'none', alliance: 0, round: 0 },
          awards: null,
        }),
      ),
    ).toEqual([]);
  });

  it('words every playoff result', () => {
    const rec = null;
    expect(seasonPlayoffText({ kind: 'won', alliance: 2, round: 0, record: rec })).toBe(
      'Won the event (Alliance 2)',
    );
    expect(seasonPlayoffText({ kind: 'finalist', alliance: 0, round: 0, record: rec })).toBe(
      'Finalists',
    );
    expect(
      seasonPlayoffText({ kind: 'playing', alliance: 1, level: 'finals', round: 0, record: rec }),
    ).toBe('Playing in the finals (Alliance 1)');
    expect(
      seasonPlayoffText({
        kind: 'eliminated',
        alliance: 3,
        level: 'quarterfinals',
        round: 0,
        record: rec,
      }),
    ).toBe('Out in the quarterfinals (Alliance 3)');
    expect(seasonPlayoffText({ kind: 'none', alliance: 0, round: 0 })).toBeNull();
  });

  it('knows past, on now and to come, and writes the days', () => {
    expect(seasonWhen(event(), '2026-03-08')).toBe('past');
    expect(seasonWhen(event(), '2026-03-07')).toBe('now');
    expect(seasonWhen(event(), '2026-03-04')).toBe('next');
    // Intl puts thin spaces around the dash.
    expect(seasonDates(event(), 'en-US')).toMatch(/^Mar 5\s–\s7$/);
    expect(seasonDates(event({ start: '2026-03-30', end: '2026-04-01' }), 'en-US')).toMatch(
      /^Mar 30\s–\sApr 1$/,
    );
    expect(seasonDates(event({ start: '', end: '' }), 'en-US')).toBe('');
  });
});
