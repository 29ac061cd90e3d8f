// The follow page's own logic (follow.tsx): which day of the event it is,
// a match's time for a viewer anywhere (theirs, and the event's when they
// differ), and the words of a result. The facts are the server's; the
// logic every event page shares is in shared/event/status.ts.
import type {
  EventStatus,
  Match,
  PlayoffLevel,
  Result,
  SeasonEvent,
  SeasonPlayoff,
} from '../../platform/types';
import { assertNever } from '../../shared/assert-never';
import { parseTime } from '../../shared/event/status';
import { isTimeZone } from '../../shared/time';

/** Which day of the event it is: day 2 of 3. */
export interface EventDay {
  day: number;
  of: number;
}

/** The calendar day of ms in timeZone (the viewer's when unknown), "YYYY-MM-DD". */
export function dayIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: isTimeZone(timeZone) ? timeZone : undefined,
  }).format(ms);
}

/** Whole days from a to b, both "YYYY-MM-DD"; NaN when either is not a date. */
function daysBetween(a: string, b: string): number {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (!re.test(a) || !re.test(b)) return NaN;
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * Which day of the event nowMs is in the event's zone, from its first and
 * last days; null before or after the event, or when its days are unknown.
 */
export function eventDay(status: EventStatus, nowMs: number): EventDay | null {
  const of = daysBetween(status.eventStart, status.eventEnd) + 1;
  const day = daysBetween(status.eventStart, dayIn(nowMs, status.timezone)) + 1;
  if (!(of >= 1) || !(day >= 1) || day > of) return null;
  return { day, of };
}

/** Where and when the event is, in a line: "Tulsa, OK, USA · day 2 of 3". */
export function whereText(status: EventStatus, nowMs: number): string {
  const day = eventDay(status, nowMs);
  return [status.eventPlace, day && `day ${day.day} of ${day.of}`].filter(Boolean).join(' · ');
}

/** How a viewer reads a moment: `viewer` in their own zone, `event` in the event's when that reads otherwise. */
export interface TwoClocks {
  viewer: string;
  event: string | null;
}

/** Options of matchClocks: the viewer's zone and locale (the browser's when undefined). */
export interface ClockOptions {
  viewerZone?: string;
  locale?: string;
}

/**
 * A moment as the viewer reads it, "Sat 2:05 PM" in their own zone (the
 * browser's: no timeZone given to Intl), and as the event's clocks show it,
 * "Sat 2:05 PM CDT", only when that differs (another offset, or another
 * day); event is null then, and when the event's zone is unknown.
 */
export function matchClocks(ms: number, eventZone: string, opts: ClockOptions = {}): TwoClocks {
  const clock: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
  };
  const viewer = new Intl.DateTimeFormat(opts.locale, { ...clock, timeZone: opts.viewerZone });
  if (!isTimeZone(eventZone)) return { viewer: viewer.format(ms), event: null };
  const there = new Intl.DateTimeFormat(opts.locale, { ...clock, timeZone: eventZone });
  if (there.format(ms) === viewer.format(ms)) return { viewer: viewer.format(ms), event: null };
  const named = new Intl.DateTimeFormat(opts.locale, {
    ...clock,
    timeZone: eventZone,
    timeZoneName: 'short',
  });
  return { viewer: viewer.format(ms), event: named.format(ms) };
}

/** The start of match to show, in epoch ms: the server's `when`; null when none is known. */
export function startOf(match: Match): number | null {
  return match.when ? parseTime(match.when.at) : null;
}

/** Our result in a word: "Won", "Lost", "Tied"; null while unplayed. */
export function resultWord(result: Result): string | null {
  switch (result) {
    case 'win':
      return 'Won';
    case 'loss':
      return 'Lost';
    case 'tie':
      return 'Tied';
    case '':
      return null;
    default:
      return assertNever(result);
  }
}

/** Our latest played match: the newest of the recent ones with a result; null before any. */
export function latestResult(status: EventStatus): Match | null {
  return (status.recent ?? []).find((m) => m.result !== '') ?? null;
}

/** A playoff stage in words: "Round 4", "the finals", "the semifinals". */
function levelText(level: PlayoffLevel, round: number): string {
  switch (level) {
    case 'bracket':
      return round > 0 ? `Round ${round}` : 'the playoffs';
    case 'finals':
      return 'the finals';
    case 'semifinals':
      return 'the semifinals';
    case 'quarterfinals':
      return 'the quarterfinals';
    case 'eighthfinals':
      return 'the eighth-finals';
    default:
      return assertNever(level);
  }
}

/** How our playoffs went at an event: "Won the event (Alliance 2)", "Out in Round 4 (Alliance 5)"; null for none. */
export function seasonPlayoffText(p: SeasonPlayoff): string | null {
  const alliance = p.alliance > 0 ? ` (Alliance ${p.alliance})` : '';
  switch (p.kind) {
    case 'none':
      return null;
    case 'playing':
      return `Playing in ${levelText(p.level, p.round)}${alliance}`;
    case 'eliminated':
      return `Out in ${levelText(p.level, p.round)}${alliance}`;
    case 'finalist':
      return `Finalists${alliance}`;
    case 'won':
      return `Won the event${alliance}`;
    default:
      return assertNever(p);
  }
}

/** When a season's event is, against today: over, on now, or to come. */
export type SeasonWhen = 'past' | 'now' | 'next';

/** Whether event is over, on or to come on today ("YYYY-MM-DD"). */
export function seasonWhen(event: SeasonEvent, today: string): SeasonWhen {
  if (event.end !== '' && event.end < today) return 'past';
  if (event.start !== '' && event.start > today) return 'next';
  return 'now';
}

/** An event's days, short: "Mar 12–14", "Mar 30–Apr 1", "" when unknown. */
export function seasonDates(event: SeasonEvent, locale?: string): string {
  const start = Date.parse(`${event.start}T12:00:00Z`);
  const end = Date.parse(`${event.end}T12:00:00Z`);
  if (Number.isNaN(start)) return '';
  const fmt = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return Number.isNaN(end) || end === start ? fmt.format(start) : fmt.formatRange(start, end);
}

/** Our result at an event in a few parts: rank, record, playoffs, awards. */
export function seasonResult(event: SeasonEvent): string[] {
  const parts: string[] = [];
  if (event.rank > 0)
    parts.push(event.of > 0 ? `Rank ${event.rank} of ${event.of}` : `Rank ${event.rank}`);
  if (event.record) parts.push(`${event.record.wins}-${event.record.losses}-${event.record.ties}`);
  const playoff = seasonPlayoffText(event.playoff);
  if (playoff) parts.push(playoff);
  for (const award of event.awards ?? []) parts.push(award);
  return parts;
}
