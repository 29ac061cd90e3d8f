// Pure state of the countdown page (docs/SPEC.md section 4, "Countdown page"): when the
// target is, which phase the page is in, and what to show or announce. Every
// function takes the time as an argument, so tests pin it and never wait.

import { pad2 } from '../../shared/time';

/** A wall-clock time of day, in local time. */
export interface TimeOfDay {
  hours: number;
  minutes: number;
  seconds: number;
}

/** Where the page stands relative to its target. */
export type CountdownPhase =
  | { kind: 'counting'; secondsLeft: number }
  | { kind: 'celebrating'; elapsedMs: number }
  | { kind: 'done' };

const timeOfDayPattern = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Parses "HH:MM" or "HH:MM:SS" (24-hour clock); null when text is not such a time. */
export function parseTimeOfDay(text: string | null | undefined): TimeOfDay | null {
  if (!text) return null;
  const m = timeOfDayPattern.exec(text.trim());
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  return { hours, minutes, seconds };
}

/**
 * Returns the next moment the clock shows timeOfDay: today when that is now
 * or later, else tomorrow. The clock is the local one, or timeZone's (an IANA
 * name like "America/Chicago") when given. The calendar arithmetic goes
 * through wall-clock fields, so a day with a daylight-saving change still
 * lands on the wall-clock time rather than 24 hours after today's.
 */
export function nextTarget(nowMs: number, timeOfDay: TimeOfDay, timeZone?: string): number {
  const { hours, minutes, seconds } = timeOfDay;
  if (timeZone) {
    const today = zonedParts(nowMs, timeZone);
    const at = zonedTimeToMs({ ...today, hours, minutes, seconds }, timeZone);
    if (at >= nowMs) return at;
    const tomorrow = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
    return zonedTimeToMs(
      {
        year: tomorrow.getUTCFullYear(),
        month: tomorrow.getUTCMonth() + 1,
        day: tomorrow.getUTCDate(),
        hours,
        minutes,
        seconds,
      },
      timeZone,
    );
  }
  const at = new Date(nowMs);
  at.setHours(hours, minutes, seconds, 0);
  if (at.getTime() < nowMs) {
    at.setDate(at.getDate() + 1);
    at.setHours(hours, minutes, seconds, 0);
  }
  return at.getTime();
}

/** A wall-clock date and time. */
interface WallTime extends TimeOfDay {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Returns what the clock of timeZone shows at ms. */
export function zonedParts(ms: number, timeZone: string): WallTime {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(timeZone, format);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(format.formatToParts(ms).find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hours: part('hour'),
    minutes: part('minute'),
    seconds: part('second'),
  };
}

/** How far timeZone's clock is ahead of UTC at ms, in milliseconds. */
function zoneOffset(ms: number, timeZone: string): number {
  const w = zonedParts(ms, timeZone);
  const asUTC = Date.UTC(w.year, w.month - 1, w.day, w.hours, w.minutes, w.seconds);
  return asUTC - Math.floor(ms / 1000) * 1000;
}

/** Returns the moment timeZone's clock shows wall (the later one in a repeated hour). */
function zonedTimeToMs(wall: WallTime, timeZone: string): number {
  const asUTC = Date.UTC(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hours,
    wall.minutes,
    wall.seconds,
  );
  const first = asUTC - zoneOffset(asUTC, timeZone);
  const second = asUTC - zoneOffset(first, timeZone);
  return Math.max(first, second);
}

/** How the first target of a page load is chosen. */
export interface FirstTargetOptions {
  /** Debug mode: the target is debugOffsetMs after load, not the time of day. */
  debug: boolean;
  debugOffsetMs: number;
  timeOfDay: TimeOfDay;
  /** The IANA time zone of timeOfDay; the local one when left out. */
  timeZone?: string;
}

/**
 * Returns the first target after a page load at loadMs. In debug mode it is
 * debugOffsetMs later, rounded up to a whole second so the target the page
 * shows (HH:mm:ss) is the moment the celebration starts.
 */
export function firstTarget(loadMs: number, options: FirstTargetOptions): number {
  if (options.debug) return Math.ceil((loadMs + options.debugOffsetMs) / 1000) * 1000;
  return nextTarget(loadMs, options.timeOfDay, options.timeZone);
}

/**
 * Returns the phase at nowMs for a target at targetMs: counting down in whole
 * seconds (rounded up, so the last second reads 1, never 0) before it,
 * celebrating from the target until celebrationMs after it, then done (the
 * caller moves on to the next target).
 */
export function countdownPhase(
  nowMs: number,
  targetMs: number,
  celebrationMs: number,
): CountdownPhase {
  if (nowMs < targetMs)
    return { kind: 'counting', secondsLeft: Math.ceil((targetMs - nowMs) / 1000) };
  const elapsedMs = nowMs - targetMs;
  if (elapsedMs < celebrationMs) return { kind: 'celebrating', elapsedMs };
  return { kind: 'done' };
}

/**
 * Returns how much of the countdown ring is still full: 1 when the target was
 * set, 0 at the target.
 */
export function ringFraction(nowMs: number, startMs: number, targetMs: number): number {
  const span = targetMs - startMs;
  if (span <= 0) return 0;
  return Math.min(1, Math.max(0, (targetMs - nowMs) / span));
}

/**
 * Formats epoch milliseconds as the wall-clock time HH:mm:ss (24-hour) of the
 * local clock, or of timeZone when given.
 */
export function formatClock(ms: number, timeZone?: string): string {
  if (timeZone) {
    const w = zonedParts(ms, timeZone);
    return `${pad2(w.hours)}:${pad2(w.minutes)}:${pad2(w.seconds)}`;
  }
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/**
 * Returns what a screen reader should hear about the phase. The text only
 * changes once a minute while counting down (once an hour when more than an
 * hour is left), so a live region fed with it is never chatty.
 */
export function announcementFor(phase: CountdownPhase): string {
  switch (phase.kind) {
    case 'celebrating':
      return 'What time is it? The countdown is over.';
    case 'done':
      return '';
    case 'counting': {
      const minutes = Math.ceil(phase.secondsLeft / 60);
      if (minutes <= 1) return 'Less than a minute to go.';
      if (minutes <= 60) return `${minutes} minutes to go.`;
      const hours = Math.ceil(minutes / 60);
      return `About ${hours} hours to go.`;
    }
  }
}

/** The text a live region holds and when it last changed. */
export interface Announcement {
  text: string;
  atMs: number;
}

/**
 * Returns the announcement to hold after offering candidate at nowMs: the new
 * text when it differs and at least minGapMs passed since the last change,
 * else prev unchanged. The text a page starts with is never announced by a
 * screen reader, so start with atMs -Infinity to let the first change through.
 */
export function nextAnnouncement(
  prev: Announcement,
  candidate: string,
  nowMs: number,
  minGapMs = 60_000,
): Announcement {
  if (candidate === '' || candidate === prev.text) return prev;
  if (nowMs - prev.atMs < minGapMs) return prev;
  return { text: candidate, atMs: nowMs };
}
