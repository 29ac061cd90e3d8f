import { cssVars } from '../../shared/css-vars';
import { bracketLayout, type BracketColumn } from './board';
import {
  bracketShort,
  playoffLabel,
  playoffTypeText,
  sideShort,
  sideWords,
} from '../../shared/event/words';
import type { BracketMatch, Playoffs } from '../../platform/types';

/** One side of a bracket match: the alliance (or where it comes from) and its wins in a series. */
function Side({
  match,
  colour,
  series,
  ourAlliance,
}: {
  match: BracketMatch;
  colour: 'red' | 'blue';
  series: boolean;
  ourAlliance: number;
}) {
  const side = match[colour];
  const won = match.winner === colour;
  const ours = ourAlliance > 0 && side.alliance === ourAlliance;
  return (
    <span
      className={`pit-bm__side pit-bm__side--${colour}${won ? ' pit-bm__side--won' : ''}${
        ours ? ' pit-bm__side--ours' : ''
      }`}
    >
      <span className="pit-bm__who">{sideShort(side)}</span>
      {series && (
        <span className="pit-bm__wins">{colour === 'red' ? match.redWins : match.blueWins}</span>
      )}
      {!series && won && <span className="pit-bm__mark">✓</span>}
    </span>
  );
}

function words(m: BracketMatch): string {
  const red = sideWords(m.red);
  const blue = sideWords(m.blue);
  let result = '';
  if (m.winner === 'red' || m.winner === 'blue') {
    result = `, won by ${m.winner === 'red' ? red : blue}`;
  }
  const series = m.redWins + m.blueWins > 1 ? ` (${m.redWins}–${m.blueWins})` : '';
  return `${playoffLabel(m.number)}: ${red} (red) vs ${blue} (blue)${result}${series}${m.ours ? ', ours' : ''}`;
}

/** One match box of the bracket, ours ringed. */
function Box({ match, ourAlliance }: { match: BracketMatch; ourAlliance: number }) {
  const series = match.number === 0;
  return (
    <li
      className={`pit-bm${match.ours ? ' pit-bm--ours' : ''}${match.winner ? ' pit-bm--done' : ''}`}
      aria-label={words(match)}
    >
      <span className="pit-bm__label" aria-hidden="true">
        {bracketShort(match.number)}
      </span>
      <span className="pit-bm__sides" aria-hidden="true">
        <Side match={match} colour="red" series={series} ourAlliance={ourAlliance} />
        <Side match={match} colour="blue" series={series} ourAlliance={ourAlliance} />
      </span>
    </li>
  );
}

/**
 * The playoff bracket as the server sends it: one column per round, the
 * upper bracket above the lower, and the finals at the right; results filled
 * in and our path ringed (on a phone, the rounds one under another, each
 * under its list's label). Read-only. Each column's place is a CSS variable
 * (--col), set through the CSSOM as the site's CSP allows.
 */
export function Bracket({ playoffs }: { playoffs: Playoffs }) {
  const layout = bracketLayout(playoffs.bracket);
  const ourAlliance = playoffs.ours?.number ?? 0;
  const typeName = playoffTypeText(playoffs.type);
  const hasLower = layout.lower.some((c) => c.matches.length > 0);
  const finalsCol = layout.rounds.length + 1;
  const column = (name: string, row: string, col: BracketColumn, i: number) =>
    col.matches.length > 0 && (
      <ol
        key={`${row}-${col.round}`}
        className={`pit-bracket__round pit-bracket__round--${row}`}
        style={cssVars({ '--col': i + 1 })}
        aria-label={`${name}, ${col.round}`}
      >
        {col.matches.map((m) => (
          <Box key={m.number} match={m} ourAlliance={ourAlliance} />
        ))}
      </ol>
    );
  return (
    <section className="pit-panel pit-bracket" aria-labelledby="pit-bracket-title">
      <h2 id="pit-bracket-title" className="pit-panel__title">
        Bracket
        {typeName && <span className="pit-bracket__type"> · {typeName}</span>}
      </h2>
      {layout.rounds.length === 0 && layout.finals.length === 0 ? (
        <p className="pit-bracket__empty">The bracket is not known yet</p>
      ) : (
        <div className={`pit-bracket__tree${hasLower ? ' pit-bracket__tree--lower' : ''}`}>
          {layout.rounds.map((r, i) => (
            <span
              key={r}
              className="pit-bracket__head"
              style={cssVars({ '--col': i + 1 })}
              aria-hidden="true"
            >
              {r}
            </span>
          ))}
          {layout.upper.map((col, i) => column('Upper bracket', 'upper', col, i))}
          {hasLower && layout.lower.map((col, i) => column('Lower bracket', 'lower', col, i))}
          {layout.finals.length > 0 && (
            <>
              <span
                className="pit-bracket__head"
                style={cssVars({ '--col': finalsCol })}
                aria-hidden="true"
              >
                Finals
              </span>
              <ol
                className="pit-bracket__round pit-bracket__round--finals"
                style={cssVars({ '--col': finalsCol })}
                aria-label="Finals"
              >
                {layout.finals.map((m) => (
                  <Box key={m.number} match={m} ourAlliance={ourAlliance} />
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </section>
  );
}
