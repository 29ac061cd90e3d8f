// The event status's logic that every page showing it shares (the pit
// display, the follow page): which countdown applies, how old the data is,
// which warning to show, and how numbers and teams are written. Every fact
// is the server's (internal/frcevent): these functions only choose words
// and shapes for it.
import type {
  Alliance,
  Colour,
  EventStatus,
  Match,
  Phase,
  Prediction,
  RankForecast,
  Rank,
  Result,
  Source,
  TimeKind,
  Webcast,
  WinLossRecord,
} from '../../platform/types';
import { StepOnField } from '../../gen/wire.gen';
import { assertNever } from '../assert-never';
import { isTimeZone, pad2 } from '../time';

/**
 * The epoch milliseconds of an RFC 3339 time, or null for none: null, empty,
 * unparsable, or Go's zero time ("0001-01-01T00:00:00Z").
 */
export function parseTime(value: string | null | undefined): number | null {
  if (!value || value.startsWith('0001-01-01')) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** The moment a countdown runs to: queue time, then on-deck time, then the start. */
export type CountdownKind = 'queue' | 'onDeck' | 'start';

/** The countdown of the next match. */
export interface Countdown {
  kind: CountdownKind;
  targetMs: number;
  /** Milliseconds left; 0 once the last known moment passed. */
  leftMs: number;
  /** What the page shows, like "Queue in 4:32". */
  text: string;
}

const countdownWords: Record<CountdownKind, string> = {
  queue: 'Queue in',
  onDeck: 'On deck in',
  start: 'Starts in',
};

/**
 * Which countdown applies to match at nowMs: to its queue time until that
 * passed, then to its on-deck time, then to its start. A step Nexus says the
 * match reached ("Now queuing", "On deck") is skipped even if its estimate is
 * still ahead. Once every known moment passed it reads "Starting now". Null
 * when no time is known, or the match is on field.
 */
export function countdownFor(match: Match, nowMs: number): Countdown | null {
  // The queue steps the server says the match reached are skipped.
  const reached = match.step;
  if (reached >= StepOnField) return null;
  const t = match.times;
  const steps: [CountdownKind, number | null][] = [
    ['queue', parseTime(t.queue)],
    ['onDeck', parseTime(t.onDeck)],
    ['start', parseTime(t.start) ?? parseTime(t.onField) ?? parseTime(t.scheduled)],
  ];
  let last: [CountdownKind, number] | null = null;
  for (const [kind, targetMs] of steps.slice(reached)) {
    if (targetMs === null) continue;
    last = [kind, targetMs];
    if (targetMs > nowMs) {
      const leftMs = targetMs - nowMs;
      return { kind, targetMs, leftMs, text: `${countdownWords[kind]} ${formatDuration(leftMs)}` };
    }
  }
  if (!last) return null;
  return { kind: last[0], targetMs: last[1], leftMs: 0, text: 'Starting now' };
}

/**
 * A countdown's time left as minutes:seconds ("4:32"), or hours:minutes:seconds
 * past an hour ("1:05:09"). Seconds round up, so it reads 0:00 only at the target.
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (total > 3600) return `${hours}:${pad2(minutes)}:${pad2(seconds)}`;
  return `${Math.floor(total / 60)}:${pad2(seconds)}`;
}

/** A span in words, whole minutes down: "14 min", "1 h", "2 h 5 min". */
export function spanWords(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** How old data of asOfMs is at nowMs: "just now" under a minute, else "2 min ago". */
export function ageText(asOfMs: number, nowMs: number): string {
  const ms = nowMs - asOfMs;
  if (ms < 60_000) return 'just now';
  return `${spanWords(ms)} ago`;
}

/** A clock time, "14:32", in timeZone when it is a known zone, else in the local one. */
export function clockText(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: isTimeZone(timeZone) ? timeZone : undefined,
  }).format(ms);
}

/** The freshness line: "Data as of 14:32 (2 min ago)", or "No data yet". */
export function asOfText(asOf: string, nowMs: number, timeZone: string): string {
  const asOfMs = parseTime(asOf);
  if (asOfMs === null) return 'No data yet';
  return `Data as of ${clockText(asOfMs, timeZone)} (${ageText(asOfMs, nowMs)})`;
}

/**
 * The words for a source in trouble (not "ok" or "off"): its own message,
 * else its name and state, and whether the screen still holds its last data.
 */
function sourceTrouble(name: string, source: Source): string | null {
  switch (source.state) {
    case 'ok':
    case 'off':
      return null;
    case 'key rejected':
    case 'event not found':
    case 'unreachable':
    case 'down':
      break;
    default:
      return assertNever(source.state);
  }
  const what = source.message || `${name}: ${source.state}`;
  return parseTime(source.asOf) === null ? what : `${what} — showing its last data`;
}

/**
 * What the warning banner says, most important first; empty when all is well:
 * the event's feed is down, the server says the data is stale, or a source
 * is in trouble (key rejected, event not found, unreachable, down). The page
 * shows the last data under it all the same.
 */
export function warningsFor(status: EventStatus, nowMs: number): string[] {
  if (!status.configured) return [];
  const warnings: string[] = [];
  if (status.feedDown) warnings.push('The event’s data feed is down — showing the last known');
  const asOfMs = parseTime(status.asOf);
  if (status.stale && asOfMs !== null) {
    warnings.push(`No fresh data for ${spanWords(nowMs - asOfMs)} — showing the last known`);
  }
  for (const [name, source] of [
    ['Nexus', status.nexus],
    ['The Blue Alliance', status.tba],
  ] as const) {
    // TBA's "down" is the feed being down, said above already.
    if (status.feedDown && source.state === 'down') continue;
    const trouble = sourceTrouble(name, source);
    if (trouble) warnings.push(trouble);
  }
  return warnings;
}

/** A W-L-T record: "5-2-0". */
export function recordText(record: WinLossRecord): string {
  return `${record.wins}-${record.losses}-${record.ties}`;
}

/** A ranking: "Rank 7 of 40" ("Rank 7" while the number of teams is unknown). */
export function rankText(rank: Rank): string {
  return rank.of > 0 ? `Rank ${rank.rank} of ${rank.of}` : `Rank ${rank.rank}`;
}

/** A team number as shown, "TBD" for a slot not yet decided. */
const teamText = (team: string) => (team.trim() === '' ? 'TBD' : team.trim());

/** The alliance of match in colour, or null for no colour. */
function allianceOf(match: Match, colour: Colour): string[] | null {
  switch (colour) {
    case 'red':
      return match.red ?? [];
    case 'blue':
      return match.blue ?? [];
    case '':
      return null;
    default:
      return assertNever(colour);
  }
}

/**
 * Our partners in match as team numbers: Nexus's list, else our alliance less
 * us; "TBD" for undecided slots.
 */
export function partnersOf(match: Match, team: number): string[] {
  if (match.partners && match.partners.length > 0) return match.partners.map(teamText);
  const ours = allianceOf(match, match.alliance) ?? [];
  return ours.filter((t) => t.trim() !== String(team)).map(teamText);
}

/** The teams we play against in match; empty when we do not play it or they are unknown. */
export function opponentsOf(match: Match): string[] {
  const theirs = allianceOf(
    match,
    match.alliance === 'red' ? 'blue' : match.alliance === 'blue' ? 'red' : '',
  );
  if (!theirs || theirs.every((t) => t.trim() === '')) return [];
  return theirs.map(teamText);
}

/** The line about the break after match, like "Lunch after this match"; null without one. */
export function breakText(match: Match): string | null {
  return match.breakAfter ? `${match.breakAfter} after this match` : null;
}

/** Our result as one letter: W, L or T; null while unplayed. */
export function resultLetter(result: Result): 'W' | 'L' | 'T' | null {
  switch (result) {
    case 'win':
      return 'W';
    case 'loss':
      return 'L';
    case 'tie':
      return 'T';
    case '':
      return null;
    default:
      return assertNever(result);
  }
}

/** A played match's score, ours first when we played it: "85–72"; null while unplayed. */
export function scoreText(match: Match): string | null {
  if (match.redScore === null || match.blueScore === null) return null;
  const [first, second] =
    match.alliance === 'blue'
      ? [match.blueScore, match.redScore]
      : [match.redScore, match.blueScore];
  return `${first}–${second}`;
}

/** How the pit shows a match's queue state: the server says when the crew must go now. */
export function statusTone(match: Match): 'urgent' | 'live' | 'calm' {
  if (match.urgent) return 'urgent';
  if (match.step === StepOnField) return 'live';
  return 'calm';
}

/** A webcast that may be linked: https only, named by its type or host. */
export interface WebcastLink {
  href: string;
  label: string;
}

/** The webcasts the page links to: https addresses only, each once. */
export function webcastLinks(webcasts: readonly Webcast[] | null): WebcastLink[] {
  const seen = new Set<string>();
  const links: WebcastLink[] = [];
  for (const w of webcasts ?? []) {
    let url: URL;
    try {
      url = new URL(w.url);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' || seen.has(url.href)) continue;
    seen.add(url.href);
    const host = url.hostname.replace(/^www\./, '');
    const type = w.type ? w.type.charAt(0).toUpperCase() + w.type.slice(1) : '';
    links.push({ href: url.href, label: type ? `${type} (${host})` : host });
  }
  return links;
}

/** Which board the page lays out for the event's phase; no phase yet reads as qualifications. */
export type BoardPhase = 'qualifications' | 'selection' | 'playoffs' | 'finished';

/** The board for status.phase. */
export function boardPhase(phase: Phase): BoardPhase {
  switch (phase) {
    case '':
    case 'qualifications':
      return 'qualifications';
    case 'alliance selection':
      return 'selection';
    case 'playoffs':
      return 'playoffs';
    case 'finished':
      return 'finished';
    default:
      return assertNever(phase);
  }
}

/** The field's pace in words: "Field running 12 min late", "… 5 min early", "Field on time"; null unknown. */
export function fieldPaceText(lateMinutes: number | null): string | null {
  if (lateMinutes === null || !Number.isFinite(lateMinutes)) return null;
  const minutes = Math.round(Math.abs(lateMinutes));
  if (minutes === 0) return 'Field on time';
  return `Field running ${minutes} min ${lateMinutes > 0 ? 'late' : 'early'}`;
}

/** A match's time to show and how it is known: { clock: "14:32", kind: "estimated" }. */
export interface MatchTime {
  ms: number;
  clock: string;
  kind: TimeKind;
}

/** The start the server names for match (its when), as a clock time; null when none is known. */
export function matchTime(match: Match, timeZone: string): MatchTime | null {
  const ms = match.when && parseTime(match.when.at);
  if (!match.when || ms === null) return null;
  return { ms, clock: clockText(ms, timeZone), kind: match.when.kind };
}

/**
 * Our win chance as a whole percentage: "62%". Never "0%" or "100%": no
 * model of a robot match is that sure, so a chance that rounds to either end
 * is shown as "> 99%" or "< 1%".
 */
export function winChanceText(prediction: Prediction): string {
  return chanceText(prediction.winChance);
}

/** A chance from 0 to 1 as a whole percentage, "> 99%" and "< 1%" at the ends (winChanceText). */
function chanceText(chance: number): string {
  const percent = Math.round(chance * 100);
  if (!(percent < 100)) return '> 99%';
  if (!(percent > 0)) return '< 1%';
  return `${percent}%`;
}

/** A rank as an English ordinal: "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen
    ? 'th'
    : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Our rank forecast in a line: "Top 8: 64% · likely 6th–11th" (the 80 % range). */
export function forecastText(f: RankForecast): string {
  const range = f.low === f.high ? ordinal(f.low) : `${ordinal(f.low)}–${ordinal(f.high)}`;
  return `Top 8: ${chanceText(f.top8)} · likely ${range}`;
}

/** A team card's forecast, short: "Top 8 64%". */
export function forecastShort(f: RankForecast): string {
  return `Top 8 ${chanceText(f.top8)}`;
}

/** Our role capitalised for the screen: "First pick". */
export function roleText(role: string): string {
  return role ? role.charAt(0).toUpperCase() + role.slice(1) : '';
}

/** An alliance's teams in words for screen readers: "Captain 1209, picks 118, 254, backup 971". */
export function allianceWords(alliance: Alliance): string {
  const [captain, ...picks] = (alliance.teams ?? []).map(teamText);
  const parts = [`Captain ${captain ?? 'TBD'}`];
  if (picks.length > 0) parts.push(`${picks.length === 1 ? 'pick' : 'picks'} ${picks.join(', ')}`);
  if (alliance.backup) parts.push(`backup ${alliance.backup}`);
  return parts.join(', ');
}

/**
 * Whether the playoffs are over for us: the event finished, or the server
 * says our alliance was eliminated or won.
 */
export function playoffsOver(status: EventStatus): boolean {
  const p = status.playoffs;
  if (status.phase === 'finished') return true;
  return p !== null && (p.state === 'eliminated' || p.state === 'won');
}
