import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  announcementFor,
  countdownPhase,
  firstTarget,
  formatClock,
  nextAnnouncement,
  nextTarget,
  parseTimeOfDay,
  ringFraction,
  zonedParts,
  type Announcement,
} from './countdown';
import {
  CelebrationLength,
  CountdownDebugOffset,
  CountdownTargetTimeOfDay,
} from '../../gen/spec.gen';

// The team is in Tulsa; pin the zone so local-time answers are the same on
// every machine (Node re-reads TZ when it is assigned).
beforeAll(() => {
  vi.stubEnv('TZ', 'America/Chicago');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Epoch ms of an ISO time with an explicit offset. */
const at = (iso: string) => Date.parse(iso);
const noon09 = { hours: 12, minutes: 9, seconds: 0 };

describe('parseTimeOfDay', () => {
  it.each([
    ['12:09', { hours: 12, minutes: 9, seconds: 0 }],
    ['12:09:00', { hours: 12, minutes: 9, seconds: 0 }],
    ['7:05', { hours: 7, minutes: 5, seconds: 0 }],
    ['00:00:00', { hours: 0, minutes: 0, seconds: 0 }],
    ['23:59:59', { hours: 23, minutes: 59, seconds: 59 }],
    [' 08:30 ', { hours: 8, minutes: 30, seconds: 0 }],
  ])('%j → %j', (text, want) => {
    expect(parseTimeOfDay(text)).toEqual(want);
  });

  it.each([
    null,
    undefined,
    '',
    '24:00',
    '12:60',
    '12:00:60',
    '12',
    '12:9',
    'noon',
    '12:09:00:00',
    '-1:00',
  ])('rejects %j', (text) => {
    expect(parseTimeOfDay(text)).toBeNull();
  });

  it('reads the spec constant', () => {
    expect(parseTimeOfDay(CountdownTargetTimeOfDay)).toEqual(noon09);
  });
});

describe('nextTarget', () => {
  it('is later today when the time of day is still ahead', () => {
    expect(nextTarget(at('2025-05-14T08:00:00-05:00'), noon09)).toBe(
      at('2025-05-14T12:09:00-05:00'),
    );
  });

  it('is now when the clock shows exactly the time of day', () => {
    const now = at('2025-05-14T12:09:00-05:00');
    expect(nextTarget(now, noon09)).toBe(now);
  });

  it('is tomorrow one millisecond after the time of day', () => {
    expect(nextTarget(at('2025-05-14T12:09:00.001-05:00'), noon09)).toBe(
      at('2025-05-15T12:09:00-05:00'),
    );
  });

  it('rolls over the end of a month and a year', () => {
    expect(nextTarget(at('2025-12-31T23:30:00-06:00'), noon09)).toBe(
      at('2026-01-01T12:09:00-06:00'),
    );
  });

  it('keeps the wall-clock time across the spring-forward night', () => {
    // 2025-03-09 02:00 CST jumps to 03:00 CDT: only 23 hours between the noons.
    const target = nextTarget(at('2025-03-08T13:00:00-06:00'), noon09);
    expect(target).toBe(at('2025-03-09T12:09:00-05:00'));
    expect(formatClock(target)).toBe('12:09:00');
  });

  it('keeps the wall-clock time across the fall-back night', () => {
    // 2025-11-02 02:00 CDT falls back to 01:00 CST: 25 hours between the noons.
    const target = nextTarget(at('2025-11-01T13:00:00-05:00'), noon09);
    expect(target).toBe(at('2025-11-02T12:09:00-06:00'));
    expect(formatClock(target)).toBe('12:09:00');
  });

  it('always returns a moment that is not in the past', () => {
    // 02:30 does not exist on 2025-03-09; whatever Date makes of it must be ahead.
    const now = at('2025-03-09T01:00:00-06:00');
    expect(nextTarget(now, { hours: 2, minutes: 30, seconds: 0 })).toBeGreaterThanOrEqual(now);
  });
});

describe('firstTarget', () => {
  const options = { debugOffsetMs: CountdownDebugOffset, timeOfDay: noon09 };

  it('is the debug offset after load in debug mode, on a whole second', () => {
    const load = at('2025-05-14T08:00:00.000-05:00');
    expect(firstTarget(load, { ...options, debug: true })).toBe(load + 10_000);
  });

  it('rounds a fractional debug target up to the next whole second', () => {
    const load = at('2025-05-14T08:00:00.400-05:00');
    expect(firstTarget(load, { ...options, debug: true })).toBe(at('2025-05-14T08:00:11-05:00'));
  });

  it('is the next time of day without debug mode', () => {
    const load = at('2025-05-14T13:00:00-05:00');
    expect(firstTarget(load, { ...options, debug: false })).toBe(at('2025-05-15T12:09:00-05:00'));
  });
});

describe('countdownPhase', () => {
  const target = at('2025-05-14T12:09:00-05:00');
  const phase = (offsetMs: number) => countdownPhase(target + offsetMs, target, CelebrationLength);

  it.each([
    [-86_400_000, 86_400],
    [-60_001, 61],
    [-60_000, 60],
    [-59_999, 60],
    [-59_000, 59],
    [-10_000, 10],
    [-1_000, 1],
    [-1, 1],
  ])('counts down %i ms before the target: %i s left', (offset, secondsLeft) => {
    expect(phase(offset)).toEqual({ kind: 'counting', secondsLeft });
  });

  it('celebrates exactly at the target', () => {
    expect(phase(0)).toEqual({ kind: 'celebrating', elapsedMs: 0 });
  });

  it('celebrates until the celebration length has passed', () => {
    expect(phase(30_000)).toEqual({ kind: 'celebrating', elapsedMs: 30_000 });
    expect(phase(CelebrationLength - 1)).toEqual({ kind: 'celebrating', elapsedMs: 59_999 });
  });

  it('is done once the celebration length has passed', () => {
    expect(phase(CelebrationLength)).toEqual({ kind: 'done' });
    expect(phase(3_600_000)).toEqual({ kind: 'done' });
  });

  it('resets to the next day once done', () => {
    const now = target + CelebrationLength;
    expect(countdownPhase(now, target, CelebrationLength).kind).toBe('done');
    const next = nextTarget(now, noon09);
    expect(next).toBe(at('2025-05-15T12:09:00-05:00'));
    expect(countdownPhase(now, next, CelebrationLength)).toEqual({
      kind: 'counting',
      secondsLeft: 86_400 - 60,
    });
  });

  it('walks a whole debug cycle: count, celebrate, reset', () => {
    const load = at('2025-05-14T08:00:00-05:00');
    const first = firstTarget(load, {
      debug: true,
      debugOffsetMs: CountdownDebugOffset,
      timeOfDay: noon09,
    });
    expect(countdownPhase(load, first, CelebrationLength)).toEqual({
      kind: 'counting',
      secondsLeft: 10,
    });
    expect(countdownPhase(load + 10_000, first, CelebrationLength).kind).toBe('celebrating');
    expect(countdownPhase(load + 70_000, first, CelebrationLength).kind).toBe('done');
    expect(nextTarget(load + 70_000, noon09)).toBe(at('2025-05-14T12:09:00-05:00'));
  });
});

describe('ringFraction', () => {
  it('is full at the start, half way through, empty at the target', () => {
    expect(ringFraction(0, 0, 10_000)).toBe(1);
    expect(ringFraction(5_000, 0, 10_000)).toBe(0.5);
    expect(ringFraction(10_000, 0, 10_000)).toBe(0);
  });

  it('clamps before the start and after the target', () => {
    expect(ringFraction(-5_000, 0, 10_000)).toBe(1);
    expect(ringFraction(20_000, 0, 10_000)).toBe(0);
  });

  it('is empty for an empty span', () => {
    expect(ringFraction(0, 10, 10)).toBe(0);
  });
});

describe('formatClock', () => {
  it.each([
    ['2025-05-14T12:09:00-05:00', '12:09:00'],
    ['2025-05-14T00:00:00-05:00', '00:00:00'],
    ['2025-05-14T09:05:07-05:00', '09:05:07'],
    ['2025-05-14T23:59:59.999-05:00', '23:59:59'],
  ])('%s → %s', (iso, want) => {
    expect(formatClock(at(iso))).toBe(want);
  });
});

describe('announcementFor', () => {
  it.each([
    [1, 'Less than a minute to go.'],
    [60, 'Less than a minute to go.'],
    [61, '2 minutes to go.'],
    [120, '2 minutes to go.'],
    [3600, '60 minutes to go.'],
    [3601, 'About 2 hours to go.'],
    [86_400, 'About 24 hours to go.'],
  ])('counting with %i s left → %s', (secondsLeft, want) => {
    expect(announcementFor({ kind: 'counting', secondsLeft })).toBe(want);
  });

  it('changes at most once a minute while counting down', () => {
    const texts = new Set<string>();
    for (let s = 1; s <= 600; s++) texts.add(announcementFor({ kind: 'counting', secondsLeft: s }));
    expect(texts.size).toBe(10);
  });

  it('announces the celebration', () => {
    expect(announcementFor({ kind: 'celebrating', elapsedMs: 0 })).toMatch(/What time is it\?/);
  });
});

describe('nextAnnouncement', () => {
  const start: Announcement = { text: 'Less than a minute to go.', atMs: -Infinity };

  it('lets the first change through at once', () => {
    expect(nextAnnouncement(start, 'What time is it?', 5_000)).toEqual({
      text: 'What time is it?',
      atMs: 5_000,
    });
  });

  it('keeps the same text without a new change', () => {
    const held = { text: 'a', atMs: 0 };
    expect(nextAnnouncement(held, 'a', 120_000)).toBe(held);
  });

  it('holds a change that comes within a minute of the last one', () => {
    const held = { text: 'a', atMs: 0 };
    expect(nextAnnouncement(held, 'b', 59_999)).toBe(held);
    expect(nextAnnouncement(held, 'b', 60_000)).toEqual({ text: 'b', atMs: 60_000 });
  });

  it('ignores an empty candidate', () => {
    const held = { text: 'a', atMs: 0 };
    expect(nextAnnouncement(held, '', 600_000)).toBe(held);
  });

  it('announces at most once a minute over a ticking countdown', () => {
    let a: Announcement = { text: '', atMs: -Infinity };
    const changes: number[] = [];
    const target = 10 * 60_000;
    for (let now = 0; now < target + CelebrationLength; now += 1000) {
      const next = nextAnnouncement(
        a,
        announcementFor(countdownPhase(now, target, CelebrationLength)),
        now,
      );
      if (next !== a) changes.push(now);
      a = next;
    }
    for (let i = 1; i < changes.length; i++) {
      expect(changes[i] - changes[i - 1]).toBeGreaterThanOrEqual(60_000);
    }
    expect(changes.length).toBeGreaterThan(5);
  });
});

describe('time zones (?tz=, --tz)', () => {
  const chicago = 'America/Chicago';
  const at1209 = { hours: 12, minutes: 9, seconds: 0 };

  it('targets 12:09 on the zone clock, not the local one', () => {
    // 2025-06-01 15:00 UTC is 10:00 in Chicago (CDT, UTC-5): today's 12:09 CDT.
    const now = Date.UTC(2025, 5, 1, 15, 0, 0);
    expect(nextTarget(now, at1209, chicago)).toBe(Date.UTC(2025, 5, 1, 17, 9, 0));
  });

  it('rolls over to tomorrow on the zone calendar', () => {
    // 2025-06-02 04:30 UTC is still June 1, 23:30 in Chicago: the next 12:09 is June 2 CDT.
    const now = Date.UTC(2025, 5, 2, 4, 30, 0);
    expect(nextTarget(now, at1209, chicago)).toBe(Date.UTC(2025, 5, 2, 17, 9, 0));
  });

  it('keeps the wall-clock time across a daylight-saving change', () => {
    // 2025-03-08 13:00 CST; the clocks spring forward that night, so the next
    // 12:09 is at UTC-5, 23 hours later on the wall clock's terms.
    const now = Date.UTC(2025, 2, 8, 19, 0, 0);
    expect(nextTarget(now, at1209, chicago)).toBe(Date.UTC(2025, 2, 9, 17, 9, 0));
  });

  it('formats the zone clock and reads zone parts', () => {
    const ms = Date.UTC(2025, 0, 4, 18, 8, 59);
    expect(formatClock(ms, chicago)).toBe('12:08:59');
    expect(formatClock(ms, 'Asia/Tokyo')).toBe('03:08:59');
    expect(zonedParts(ms, chicago)).toEqual({
      year: 2025,
      month: 1,
      day: 4,
      hours: 12,
      minutes: 8,
      seconds: 59,
    });
  });
});
