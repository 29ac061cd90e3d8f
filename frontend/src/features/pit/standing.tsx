import {
  criterionValue,
  forecastText,
  rankText,
  rankTrendPoints,
  rankTrendText,
  recordText,
} from './board';
import type { EventStatus } from '../../platform/types';

const sparkW = 120;
const sparkH = 40;
const sparkPad = 4;
/** How many of the latest ranks the trend's caption writes out; the line draws them all. */
const trendShown = 5;

/**
 * Our rank after each played match as a small line, rank 1 at the top, the
 * last rank written beside it; one text for screen readers.
 */
export function RankTrend({ trend }: { trend: readonly number[] | null }) {
  const points = rankTrendPoints(trend, sparkW, sparkH, sparkPad);
  const words = rankTrendText(trend);
  if (!points || !trend) return null;
  const last = points[points.length - 1];
  return (
    <figure className="pit-trend">
      <svg
        className="pit-trend__line"
        viewBox={`0 0 ${sparkW} ${sparkH}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={words}
      >
        <polyline
          points={points.map((p) => `${p.x},${p.y}`).join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth="3"
          strokeLinejoin="round"
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
        <circle cx={last.x} cy={last.y} r="4" fill="currentColor" />
      </svg>
      <figcaption className="pit-trend__caption" aria-hidden="true">
        {(trend.length > trendShown ? ['…', ...trend.slice(-trendShown)] : trend).join(' → ')}
      </figcaption>
    </figure>
  );
}

/**
 * Rank, record, our pit, the rank forecast while the qualifications go on,
 * TBA's ranking criteria with our values, and the rank trend.
 */
export function Standing({ status, final = false }: { status: EventStatus; final?: boolean }) {
  const criteria = (status.rankCriteria ?? []).slice(0, 6);
  return (
    <section className="pit-panel pit-facts" aria-label="Standing">
      <dl className="pit-facts__list">
        <div className="pit-fact pit-fact--rank">
          <dt className="visually-hidden">{final ? 'Final qualification rank' : 'Rank'}</dt>
          <dd className="pit-fact__value">{status.rank ? rankText(status.rank) : 'Unranked'}</dd>
        </div>
        <div className="pit-fact pit-fact--record">
          <dt className="pit-fact__label">W-L-T</dt>
          <dd className="pit-fact__value">{status.rank ? recordText(status.rank.record) : '—'}</dd>
        </div>
        <div className="pit-fact pit-fact--pit">
          <dt className="pit-fact__label">Our pit</dt>
          <dd className="pit-fact__value">{status.pit ? `Pit ${status.pit}` : '—'}</dd>
        </div>
        {status.forecast && (
          <div className="pit-fact pit-fact--forecast">
            <dt className="visually-hidden">Rank forecast</dt>
            <dd className="pit-fact__value">{forecastText(status.forecast)}</dd>
          </div>
        )}
      </dl>
      {(criteria.length > 0 || (status.rankTrend ?? []).length > 1) && (
        <div className="pit-facts__more">
          {criteria.length > 0 && (
            <div role="group" aria-label="Ranking criteria">
              <dl className="pit-criteria">
                {criteria.map((c) => (
                  <div key={c.name} className="pit-criteria__item">
                    <dt className="pit-criteria__name">{c.name}</dt>
                    <dd className="pit-criteria__value">{criterionValue(c)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <RankTrend trend={status.rankTrend} />
        </div>
      )}
    </section>
  );
}
