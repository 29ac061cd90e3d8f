// The pit's words for the server's facts: the wire carries only data
// (internal/frcevent/board, wire.gen.ts), and every sentence a crew reads
// about a match's time, a turnaround, a bracket side, a route or the end of
// the playoffs is made here, by an exhaustive switch over the wire's unions.
import type {
  AllianceState,
  BracketSide,
  BracketSource,
  Outcome,
  PlayoffNext,
  Playoffs,
  Route,
  TimeKind,
  Turnaround,
} from '../../platform/types';
import { PlayoffDoubleElim4, PlayoffDoubleElim8 } from '../../gen/wire.gen';
import { assertNever } from '../assert-never';

/** How a match's time is labelled: "actual", "estimated" or "scheduled". */
export function timeKindWord(kind: TimeKind): string {
  switch (kind) {
    case 'actual':
      return 'actual';
    case 'estimated':
      return 'estimated';
    case 'scheduled':
      return 'scheduled';
    default:
      return assertNever(kind);
  }
}

/** How a match's time is labelled in a narrow row: "actual", "est.", "sched.". */
export function timeKindShort(kind: TimeKind): string {
  switch (kind) {
    case 'actual':
      return 'actual';
    case 'estimated':
      return 'est.';
    case 'scheduled':
      return 'sched.';
    default:
      return assertNever(kind);
  }
}

/** The turnaround warning: "Back to back", "2-match turnaround", "18 min turnaround". */
export function turnaroundText(turnaround: Turnaround): string {
  switch (turnaround.kind) {
    case 'backToBack':
      return 'Back to back';
    case 'oneBetween':
      return '2-match turnaround';
    case 'minutes':
      return `${turnaround.minutes} min turnaround`;
    default:
      return assertNever(turnaround);
  }
}

/** A bracket match by its number: "Playoff 7"; the finals (0) are "Finals". */
export function playoffLabel(match: number): string {
  return match === 0 ? 'Finals' : `Playoff ${match}`;
}

/** A bracket match's short name: "M7", "F" for the finals. */
export function bracketShort(match: number): string {
  return match === 0 ? 'F' : `M${match}`;
}

/** Where an alliance comes from in full: "Alliance 3", "Winner of Playoff 5", "Loser of Playoff 3". */
export function sourceWords(source: BracketSource): string {
  switch (source.kind) {
    case 'alliance':
      return `Alliance ${source.alliance}`;
    case 'winnerOf':
      return `Winner of ${playoffLabel(source.match)}`;
    case 'loserOf':
      return `Loser of ${playoffLabel(source.match)}`;
    default:
      return assertNever(source);
  }
}

/** Where an alliance comes from in short: "A3", "W M5", "L M3". */
function sourceShort(source: BracketSource): string {
  switch (source.kind) {
    case 'alliance':
      return `A${source.alliance}`;
    case 'winnerOf':
      return `W ${bracketShort(source.match)}`;
    case 'loserOf':
      return `L ${bracketShort(source.match)}`;
    default:
      return assertNever(source);
  }
}

/** A bracket side in short: "A3" once its alliance is known, else where it comes from ("W M5", "L M3"). */
export function sideShort(side: BracketSide): string {
  return side.alliance > 0 ? `A${side.alliance}` : sourceShort(side.from);
}

/** A bracket side in full for screen readers: "Alliance 3", "Winner of Playoff 5". */
export function sideWords(side: BracketSide): string {
  return side.alliance > 0 ? `Alliance ${side.alliance}` : sourceWords(side.from);
}

/** What follows a playoff match as the line says it: "Playoff 13 (blue)", "Final 3", "eliminated", "event winners". */
export function routeWords(route: Route): string {
  switch (route.kind) {
    case 'playoff':
      return `${playoffLabel(route.match)} (${route.colour})`;
    case 'finals':
      return `Finals (${route.colour})`;
    case 'final':
      return `Final ${route.game}`;
    case 'eliminated':
      return 'eliminated';
    case 'winners':
      return 'event winners';
    default:
      return assertNever(route);
  }
}

/** "If we win → Playoff 13 (blue)". */
export function ifWinText(next: PlayoffNext): string {
  return `If we win → ${routeWords(next.ifWin)}`;
}

/** "If we lose → eliminated". */
export function ifLoseText(next: PlayoffNext): string {
  return `If we lose → ${routeWords(next.ifLose)}`;
}

/** Our next playoff match as Nexus names it: "Playoff 13", "Final 2". */
export function nextLabel(next: PlayoffNext): string {
  return next.match === 0 ? `Final ${next.game}` : playoffLabel(next.match);
}

/** The finals' score so far: "Finals: 1–1, match 3"; null outside the finals. */
export function seriesText(next: PlayoffNext): string | null {
  if (!next.series) return null;
  return `Finals: ${next.series.ours}–${next.series.theirs}, match ${next.game}`;
}

/** The end of the playoffs for us: "Event winners", "Finalists", "Eliminated in Round 4"; null while we play on. */
export function outcomeText(playoffs: Playoffs): string | null {
  const outcome: Outcome = playoffs.outcome;
  switch (outcome) {
    case '':
      return null;
    case 'winners':
      return 'Event winners';
    case 'finalists':
      return 'Finalists';
    case 'eliminated':
      return playoffs.round ? `Eliminated in ${playoffs.round}` : 'Eliminated';
    default:
      return assertNever(outcome);
  }
}

/** The state shown beside an alliance: "Out", "Winners"; "" while playing or before. */
export function allianceStateText(state: AllianceState): string {
  switch (state) {
    case '':
    case 'playing':
      return '';
    case 'eliminated':
      return 'Out';
    case 'won':
      return 'Winners';
    default:
      return assertNever(state);
  }
}

/** TBA's playoff type in words: "Double elimination, 8 alliances"; "" for other types. */
export function playoffTypeText(type: number): string {
  if (type === PlayoffDoubleElim8) return 'Double elimination, 8 alliances';
  if (type === PlayoffDoubleElim4) return 'Double elimination, 4 alliances';
  return '';
}
