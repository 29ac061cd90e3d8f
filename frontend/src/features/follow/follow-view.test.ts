import { describe, expect, it } from 'vitest';
import { statusAt } from '../../shared/event/fixtures';
import { eventDay, matchClocks, resultWord, whereText } from './follow-view';

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
