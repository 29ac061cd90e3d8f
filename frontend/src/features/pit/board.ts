// The pit display's own logic (pit.tsx): its news column, QR code, ranking
// details, team cards and bracket. What the follow page shares with it (the
// countdown, the data's age, warnings, how numbers and teams are written)
// is in shared/event/status.ts; it is exported from here too, so the pit's
// modules keep one place to import from.
import type {
  Announcement,
  BracketMatch,
  BracketSide,
  Colour,
  Criterion,
  EventStatus,
  PartsRequest,
  Prediction,
  TeamCard,
} from '../../platform/types';
import { assertNever } from '../../shared/assert-never';
import { parseTime } from '../../shared/event/status';

export {
  parseTime,
  countdownFor,
  formatDuration,
  spanWords,
  ageText,
  clockText,
  asOfText,
  warningsFor,
  recordText,
  rankText,
  partnersOf,
  opponentsOf,
  breakText,
  resultLetter,
  scoreText,
  statusTone,
  webcastLinks,
  boardPhase,
  fieldPaceText,
  matchTime,
  winChanceText,
  ordinal,
  forecastText,
  forecastShort,
  roleText,
  allianceWords,
  playoffsOver,
} from '../../shared/event/status';
export type {
  CountdownKind,
  Countdown,
  WebcastLink,
  BoardPhase,
  MatchTime,
} from '../../shared/event/status';

/** One line of the news column: an announcement or a parts request. */
export interface NoticeItem {
  kind: 'announcement' | 'parts';
  id: string;
  /** For parts requests, the asking team. */
  team: string;
  text: string;
  postedMs: number | null;
}

/** Announcements and parts requests as one list, newest first (unknown times last, stable). */
export function noticesOf(
  announcements: readonly Announcement[] | null,
  parts: readonly PartsRequest[] | null,
): NoticeItem[] {
  const items: NoticeItem[] = [
    ...(announcements ?? []).map((a) => ({
      kind: 'announcement' as const,
      id: `a-${a.id}`,
      team: '',
      text: a.text,
      postedMs: parseTime(a.posted),
    })),
    ...(parts ?? []).map((p) => ({
      kind: 'parts' as const,
      id: `p-${p.id}`,
      team: p.team,
      text: p.parts,
      postedMs: parseTime(p.posted),
    })),
  ];
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        (b.item.postedMs ?? -Infinity) - (a.item.postedMs ?? -Infinity) || a.index - b.index,
    )
    .map(({ item }) => item);
}

/**
 * What the QR code points to: this site's home page when the page is served
 * over http(s), else (the desktop window, wails://) the team site's address
 * when one is known; null for no QR code.
 */
export function qrTarget(origin: string, teamSiteUrl: string | undefined): string | null {
  if (/^https?:\/\//.test(origin)) return `${origin}/`;
  if (teamSiteUrl && /^https?:\/\//.test(teamSiteUrl)) return teamSiteUrl;
  return null;
}

/** The line under the next match when there is none. */
export function noNextMatchText(status: EventStatus): string {
  return (status.recent ?? []).length > 0
    ? 'No more matches scheduled for us right now'
    : 'Our match schedule is not out yet';
}

/** A ranking criterion's value with TBA's number of decimals: "2.17". */
export function criterionValue(criterion: Criterion): string {
  const digits = Math.min(Math.max(0, Math.trunc(criterion.precision) || 0), 6);
  return Number.isFinite(criterion.value) ? criterion.value.toFixed(digits) : '—';
}

/** The rank trend for screen readers: "Rank after each match: 12, 9, 7"; "" for none. */
export function rankTrendText(trend: readonly number[] | null): string {
  if (!trend || trend.length === 0) return '';
  return `Rank after each match: ${trend.join(', ')}`;
}

/**
 * The sparkline of a rank trend as SVG polyline points in a width×height box:
 * one point per match from left to right, the best rank (1) at the top and
 * the worst at the bottom, scaled to the ranks seen. Null for under 2 points.
 */
export function rankTrendPoints(
  trend: readonly number[] | null,
  width: number,
  height: number,
  pad = 0,
): { x: number; y: number }[] | null {
  if (!trend || trend.length < 2) return null;
  const best = Math.min(...trend);
  const worst = Math.max(...trend);
  const span = worst - best;
  const step = (width - 2 * pad) / (trend.length - 1);
  const round = (n: number) => Math.round(n * 10) / 10;
  return trend.map((rank, i) => ({
    x: round(pad + i * step),
    y: round(span === 0 ? height / 2 : pad + ((rank - best) / span) * (height - 2 * pad)),
  }));
}

/** What the win chance rests on, in a few words: "From the scores of 42 qualification matches". */
export function winChanceBasisText(prediction: Prediction): string {
  const n = prediction.matches;
  return `From the scores of ${n} qualification ${n === 1 ? 'match' : 'matches'}`;
}

/** A team's OPR with one decimal, "23.4"; "—" when the server has none. */
export function oprText(opr: number | null): string {
  return opr === null || !Number.isFinite(opr) ? '—' : opr.toFixed(1);
}

/** Where the OPR figures come from: "OPR computed by this program from 42 played matches". */
export function oprSourceText(prediction: Prediction | null): string {
  if (!prediction) return 'OPR computed by this program from the played matches';
  const n = prediction.matches;
  return `OPR computed by this program from ${n} played ${n === 1 ? 'match' : 'matches'}`;
}

/** The team cards of one colour, in the server's order. */
export function cardsOf(cards: readonly TeamCard[] | null, alliance: Colour): TeamCard[] {
  return (cards ?? []).filter((c) => c.alliance === alliance);
}

/** One column of a bracket section: a round and its matches, in number order. */
export interface BracketColumn {
  round: string;
  matches: BracketMatch[];
}

/** The bracket laid out: the upper and lower bracket by round, and the finals. */
export interface BracketLayout {
  rounds: string[];
  upper: BracketColumn[];
  lower: BracketColumn[];
  finals: BracketMatch[];
}

/**
 * Places the server's bracket for drawing: one column per round in the
 * order the rounds come, the finals (match 0) apart, and each match in the
 * lower bracket when a side comes from a loser or from a lower-bracket
 * match, else in the upper. It only places boxes: who plays and who
 * advances is the server's.
 */
export function bracketLayout(bracket: readonly BracketMatch[] | null): BracketLayout {
  const all = bracket ?? [];
  const finals = all.filter((m) => m.number === 0);
  const rest = all.filter((m) => m.number !== 0);
  const rounds: string[] = [];
  for (const m of rest) if (!rounds.includes(m.round)) rounds.push(m.round);
  const lower = new Set<number>();
  const fromLower = (side: BracketSide): boolean => {
    const from = side.from;
    switch (from.kind) {
      case 'alliance':
        return false;
      case 'loserOf':
        return true;
      case 'winnerOf':
        return lower.has(from.match);
      default:
        return assertNever(from);
    }
  };
  for (const m of rest) if (fromLower(m.red) || fromLower(m.blue)) lower.add(m.number);
  const column = (inLower: boolean) =>
    rounds.map((round) => ({
      round,
      matches: rest.filter((m) => m.round === round && lower.has(m.number) === inLower),
    }));
  return { rounds, upper: column(false), lower: column(true), finals };
}

/** path on the site the QR codes point to (its origin), else on this page's. */
function onSite(siteTarget: string | null, path: string): string {
  if (!siteTarget) return path;
  try {
    return new URL(path, siteTarget).href;
  } catch {
    return path;
  }
}

/** The calendar's address: /pit/{team}.ics on the site the QR code points to, else on this page's. */
export function calendarUrl(siteTarget: string | null, team: number): string {
  return onSite(siteTarget, `/pit/${team}.ics`);
}

/** The follow page's address (issue 37): /follow on the site the QR code points to, else on this page's. */
export function followUrl(siteTarget: string | null): string {
  return onSite(siteTarget, '/follow');
}
