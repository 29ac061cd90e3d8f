import {
  breakText,
  countdownFor,
  fieldPaceText,
  matchTime,
  noNextMatchText,
  opponentsOf,
  partnersOf,
  statusTone,
} from './board';
import { timeKindWord, turnaroundText } from '../../shared/event/words';
import type { Colour, EventStatus, Match } from '../../platform/types';

/** The size step of a match label: the longer it is, the smaller, so it stays whole. */
export function labelSize(label: string): string {
  if (label.length > 30) return ' pit-hero__label--longer';
  if (label.length > 18) return ' pit-hero__label--long';
  return '';
}

/** Team numbers joined for reading from afar: "2363 · 4499". */
export const teamList = (list: readonly string[]) => list.join(' · ');

/** Our colour in a match as the page's class word: "red", "blue" or "none". */
export const colourOf = (alliance: Colour) => (alliance === '' ? 'none' : alliance);

/** "Red alliance" / "Blue alliance". */
export const colourName = (alliance: 'red' | 'blue') =>
  alliance === 'red' ? 'Red alliance' : 'Blue alliance';

/** The queue status word and the countdown of match. */
export function MatchClock({ match, nowMs }: { match: Match; nowMs: number }) {
  const countdown = countdownFor(match, nowMs);
  const tone = statusTone(match);
  if (!match.status && !countdown) return null;
  return (
    <div className="pit-hero__status">
      {match.status && (
        <p className={`pit-pill pit-pill--${tone}`} aria-live="polite">
          {match.status}
        </p>
      )}
      {countdown && (
        <p className="pit-countdown" role="timer">
          {countdown.text}
        </p>
      )}
    </div>
  );
}

/** The turnaround warning of a match, prominent; nothing when the server gives none. */
export function Turnaround({ match }: { match: Match }) {
  if (!match.turnaround) return null;
  return (
    <p className="pit-turnaround" role="note">
      <span aria-hidden="true" className="pit-turnaround__icon">
        !
      </span>
      {turnaroundText(match.turnaround)}
    </p>
  );
}

/** "Starts 14:32 · estimated" and the field's pace: one line under the next match. */
export function MatchTimeLine({ match, status }: { match: Match; status: EventStatus }) {
  const time = matchTime(match, status.timezone);
  const pace = fieldPaceText(status.fieldLateMinutes);
  if (!time && !pace) return null;
  return (
    <p className="pit-hero__time">
      {time && (
        <span>
          {time.kind === 'actual' ? 'Started' : 'Starts'}{' '}
          <time dateTime={new Date(time.ms).toISOString()}>{time.clock}</time>
          <span className="pit-kind"> {timeKindWord(time.kind)}</span>
        </span>
      )}
      {pace && <span className="pit-hero__pace">{pace}</span>}
    </p>
  );
}

/** The next qualification match, largest on the page, on our alliance's colour. */
export function NextMatch({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const match: Match | null = status.nextMatch;
  if (!match) {
    const pace = fieldPaceText(status.fieldLateMinutes);
    return (
      <div className="pit-hero pit-hero--none">
        <h1 id="pit-title" className="pit-hero__eyebrow">
          Next match
        </h1>
        <p className="pit-hero__quiet">{noNextMatchText(status)}</p>
        {pace && <p className="pit-hero__time">{pace}</p>}
      </div>
    );
  }
  const alliance = colourOf(match.alliance);
  const partners = partnersOf(match, status.team);
  const opponents = opponentsOf(match);
  const after = breakText(match);
  return (
    <div className={`pit-hero pit-hero--${alliance} pit-hero--${statusTone(match)}`}>
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">
          Next match{alliance !== 'none' && ` · ${colourName(alliance)}`}
        </span>
        <span className={`pit-hero__label${labelSize(match.label)}`}>{match.label}</span>
      </h1>
      {match.replayOf && <p className="pit-hero__replay">Replay of {match.replayOf}</p>}
      <Turnaround match={match} />
      <MatchClock match={match} nowMs={nowMs} />
      {(partners.length > 0 || opponents.length > 0) && (
        <p className="pit-hero__teams">
          {partners.length > 0 && (
            <span>
              With <strong>{teamList(partners)}</strong>
            </span>
          )}
          {opponents.length > 0 && (
            <span>
              vs <strong>{teamList(opponents)}</strong>
            </span>
          )}
        </p>
      )}
      <MatchTimeLine match={match} status={status} />
      {after && <p className="pit-hero__break">{after}</p>}
    </div>
  );
}
