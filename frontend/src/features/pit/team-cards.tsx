import {
  cardsOf,
  forecastShort,
  oprSourceText,
  oprText,
  winChanceBasisText,
  winChanceText,
} from './board';
import type { EventStatus, TeamCard } from '../../platform/types';

function Card({ card, us }: { card: TeamCard; us: boolean }) {
  return (
    <li className={`pit-card pit-card--${card.alliance}${us ? ' pit-card--us' : ''}`}>
      <span className="pit-card__team">{card.team}</span>
      <span className="pit-card__name">{card.name}</span>
      <span className="pit-card__opr">
        <span className="pit-card__opr-label">OPR </span>
        {oprText(card.opr)}
      </span>
      {card.forecast && <span className="pit-card__top8">{forecastShort(card.forecast)}</span>}
    </li>
  );
}

/**
 * The six teams of our next match by alliance, with the OPR this program
 * computes, each one's chance of a top-8 finish while the qualifications go
 * on, and our win chance; nothing when the server sends no cards.
 */
export function TeamCards({ status }: { status: EventStatus }) {
  const cards = status.teamCards ?? [];
  if (cards.length === 0) return null;
  const us = String(status.team);
  const p = status.prediction;
  return (
    <section className="pit-panel pit-teams" aria-labelledby="pit-teams-title">
      <div className="pit-teams__head">
        <h2 id="pit-teams-title" className="pit-panel__title">
          Next match teams
        </h2>
        {p && (
          <p className="pit-teams__chance">
            Win chance <strong>{winChanceText(p)}</strong>
          </p>
        )}
      </div>
      {(['red', 'blue'] as const).map((colour) => {
        const list = cardsOf(cards, colour);
        if (list.length === 0) return null;
        return (
          <ol
            key={colour}
            className={`pit-teams__row pit-teams__row--${colour}`}
            aria-label={colour === 'red' ? 'Red alliance' : 'Blue alliance'}
          >
            {list.map((c) => (
              <Card key={c.team} card={c} us={c.team === us} />
            ))}
          </ol>
        );
      })}
      <p className="pit-teams__note">
        <span>{oprSourceText(p)}</span>
        {p && (
          <span className="pit-teams__model">
            Win chance: {winChanceBasisText(p).toLowerCase()}
          </span>
        )}
      </p>
    </section>
  );
}
