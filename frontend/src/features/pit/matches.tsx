import { matchTime, resultLetter, scoreText } from './board';
import { timeKindShort, timeKindWord } from '../../shared/event/words';
import type { Colour, EventStatus, Match } from '../../platform/types';

/** A small colour square for our alliance in a match, named for screen readers. */
function AllianceChip({ alliance }: { alliance: Colour }) {
  if (alliance === '') return null;
  return (
    <span className={`pit-chip pit-chip--${alliance}`}>
      <span className="visually-hidden">{alliance} alliance</span>
    </span>
  );
}

/**
 * What a row says after the match's label: result and score, or about when
 * it starts and how that time is known (the full word for screen readers).
 */
function MatchDetail({ match, timeZone }: { match: Match; timeZone: string }) {
  const letter = resultLetter(match.result);
  const score = scoreText(match);
  if (letter || score) return <>{[letter, score].filter(Boolean).join(' ')}</>;
  const time = matchTime(match, timeZone);
  if (!time) return null;
  return (
    <>
      {time.kind === 'actual' ? time.clock : `~${time.clock}`}
      <span className="pit-kind">
        {' '}
        <span aria-hidden="true">{timeKindShort(time.kind)}</span>
        <span className="visually-hidden">{timeKindWord(time.kind)}</span>
      </span>
    </>
  );
}

interface RowsProps {
  title: string;
  matches: readonly Match[];
  timeZone: string;
  /** Said when there are no matches; the group is left out when undefined. */
  empty?: string;
}

/** One group of the panel: a heading and its matches. */
function MatchRows({ title, matches, timeZone, empty }: RowsProps) {
  if (matches.length === 0 && empty === undefined) return null;
  return (
    <div className="pit-matches__group">
      <h2 className="pit-matches__title">{title}</h2>
      {matches.length === 0 ? (
        <p className="pit-matches__empty">{empty}</p>
      ) : (
        <ol className="pit-matches__list">
          {matches.map((m, i) => {
            const letter = resultLetter(m.result);
            return (
              <li key={m.key || `${m.label}-${i}`} className="pit-matches__row">
                <AllianceChip alliance={m.alliance} />
                <span className="pit-matches__label">{m.label}</span>
                <span
                  className={`pit-matches__detail${letter ? ` pit-matches__detail--${letter}` : ''}`}
                >
                  <MatchDetail match={m} timeZone={timeZone} />
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/** The matches panel: on field now, queuing now, our last 2 and our next 2. */
export function PitMatches({ status }: { status: EventStatus }) {
  const tz = status.timezone;
  return (
    <section className="pit-panel pit-matches" aria-label="Matches">
      <div className="pit-matches__group">
        <h2 className="pit-matches__title">On field</h2>
        <p className="pit-matches__now">
          {status.onField ? (
            <>
              <AllianceChip alliance={status.onField.alliance} />
              <span className="pit-matches__label">{status.onField.label}</span>
            </>
          ) : (
            <span className="pit-matches__empty">—</span>
          )}
        </p>
      </div>
      {status.nowQueuing && (
        <div className="pit-matches__group">
          <h2 className="pit-matches__title">Queuing</h2>
          <p className="pit-matches__now">
            <span className="pit-matches__label">{status.nowQueuing}</span>
          </p>
        </div>
      )}
      <MatchRows
        title="Last"
        matches={(status.recent ?? []).slice(0, 2)}
        timeZone={tz}
        empty="None played yet"
      />
      <MatchRows
        title="Then"
        matches={(status.upcoming ?? []).slice(0, 2)}
        timeZone={tz}
        empty={status.nextMatch ? 'None scheduled' : undefined}
      />
    </section>
  );
}
