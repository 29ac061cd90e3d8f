import { playoffsOver, rankText, recordText, roleText, statusTone } from './board';
import {
  ifLoseText,
  ifWinText,
  nextLabel,
  outcomeText,
  seriesText,
  sourceWords,
} from '../../shared/event/words';
import type { EventStatus, Playoffs } from '../../platform/types';
import {
  MatchClock,
  MatchTimeLine,
  Turnaround,
  colourName,
  colourOf,
  labelSize,
  teamList,
} from './next-match';

/** "Final qualification rank 7 of 40 · 5-2-0", or null before rankings. */
function finalRankLine(status: EventStatus): string | null {
  if (!status.rank) return null;
  return `Final qualification ${rankText(status.rank).toLowerCase()} · ${recordText(status.rank.record)}`;
}

/** Not on an alliance: calm, thankful, with our final rank. */
function NotSelected({ status, selecting }: { status: EventStatus; selecting: boolean }) {
  const rank = finalRankLine(status);
  return (
    <div className="pit-hero pit-hero--none pit-hero--thanks">
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">{selecting ? 'Alliance selection' : 'Playoffs'}</span>
        <span className="pit-hero__label pit-hero__label--words">
          {selecting ? 'Not on an alliance yet' : 'Not selected — thank you'}
        </span>
      </h1>
      {rank && <p className="pit-hero__teams">{rank}</p>}
      <p className="pit-hero__quiet">
        {selecting
          ? 'The alliances form on the right.'
          : 'Thank you to every team we played with. Cheer the playoffs on!'}
      </p>
    </div>
  );
}

/** Alliance selection: our final rank and, once picked, our alliance, role and partners. */
export function SelectionHero({ status }: { status: EventStatus }) {
  const ours = status.playoffs?.ours ?? null;
  if (!ours) return <NotSelected status={status} selecting={!status.playoffs?.selectionDone} />;
  const rank = finalRankLine(status);
  return (
    <div className="pit-hero pit-hero--gold">
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">Alliance selection · {roleText(ours.role)}</span>
        <span className="pit-hero__label">Alliance {ours.number}</span>
      </h1>
      {(ours.partners ?? []).length > 0 && (
        <p className="pit-hero__teams">
          <span>
            With <strong>{teamList(ours.partners ?? [])}</strong>
          </span>
        </p>
      )}
      {rank && <p className="pit-hero__time">{rank}</p>}
    </div>
  );
}

/** The end of the playoffs for us: "Event winners" or "Eliminated in Round 4", with our alliance. */
function Outcome({ status, playoffs }: { status: EventStatus; playoffs: Playoffs }) {
  const ours = playoffs.ours;
  const won = playoffs.state === 'won';
  const record = recordText(playoffs.record);
  return (
    <div className={`pit-hero ${won ? 'pit-hero--gold' : 'pit-hero--none'} pit-hero--outcome`}>
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">Playoffs{ours && ` · Alliance ${ours.number}`}</span>
        <span className="pit-hero__label pit-hero__label--words">
          {outcomeText(playoffs) ?? 'Playoffs over'}
        </span>
      </h1>
      {ours && (ours.partners ?? []).length > 0 && (
        <p className="pit-hero__teams">
          <span>
            With <strong>{teamList(ours.partners ?? [])}</strong>
          </span>
        </p>
      )}
      <p className="pit-hero__time">
        <span>Playoff record {record}</span>
        {finalRankLine(status) && <span>{finalRankLine(status)}</span>}
      </p>
      {!won && <p className="pit-hero__quiet">Thank you for cheering us on!</p>}
    </div>
  );
}

/**
 * The playoffs for us: our alliance and partners in our colour, the next
 * match with its countdown and what follows a win or a loss, the finals
 * series; the outcome once it is over; a thank-you when we are on no
 * alliance.
 */
export function PlayoffHero({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const playoffs = status.playoffs;
  if (!playoffs || !playoffs.ours) return <NotSelected status={status} selecting={false} />;
  if (playoffs.outcome !== '' || playoffsOver(status)) {
    return <Outcome status={status} playoffs={playoffs} />;
  }
  const ours = playoffs.ours;
  const next = playoffs.next;
  const match = status.nextMatch;
  const colour = colourOf(next?.alliance || match?.alliance || '');
  const label = (next && nextLabel(next)) || match?.label || '';
  const win = next && ifWinText(next);
  const lose = next && ifLoseText(next);
  const series = next && seriesText(next);
  return (
    <div
      className={`pit-hero pit-hero--${colour}${match ? ` pit-hero--${statusTone(match)}` : ''}`}
    >
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">
          Alliance {ours.number}
          {colour !== 'none' && ` · ${colourName(colour)}`}
        </span>
        <span className={`pit-hero__label${labelSize(label || 'Waiting for our next match')}`}>
          {label || 'Waiting for our next match'}
        </span>
      </h1>
      {playoffs.round && (
        <p className="pit-hero__record">
          Playoff record {recordText(playoffs.record)} ({playoffs.round})
        </p>
      )}
      {series && <p className="pit-series">{series}</p>}
      {match && <Turnaround match={match} />}
      {match && <MatchClock match={match} nowMs={nowMs} />}
      <p className="pit-hero__teams">
        {(ours.partners ?? []).length > 0 && (
          <span>
            With <strong>{teamList(ours.partners ?? [])}</strong>
          </span>
        )}
        {next && (
          <span>
            vs <strong>{sourceWords(next.opponent)}</strong>
          </span>
        )}
      </p>
      {(win || lose) && (
        <p className="pit-ifs">
          {win && <span className="pit-ifs__win">{win}</span>}
          {lose && <span className="pit-ifs__lose">{lose}</span>}
        </p>
      )}
      {match && <MatchTimeLine match={match} status={status} />}
    </div>
  );
}
