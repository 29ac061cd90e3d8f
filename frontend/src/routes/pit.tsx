import { PitMatches } from '../components/pit-matches';
import { PitNotices } from '../components/pit-notices';
import { PitQr } from '../components/pit-qr';
import { useEvent, useNow } from '../hooks/use-event';
import { useRouteHead } from '../hooks/use-route-head';
import { usePlatform } from '../platform';
import {
  asOfText,
  breakText,
  countdownFor,
  noNextMatchText,
  opponentsOf,
  partnersOf,
  qrTarget,
  rankText,
  recordText,
  statusTone,
  warningsFor,
  webcastLinks,
} from '../lib/pit';
import type { EventStatus, Match } from '../platform/types';
import './pit.css';

/**
 * The pit display: our next match, its countdown and queue status, rank,
 * recent and coming matches, announcements and links, sized to fill one
 * screen for a crew reading it from across the pit.
 */
export default function Pit() {
  useRouteHead('/pit');
  const status = useEvent();
  const nowMs = useNow();

  if (status === null) return <PitLoading />;
  if (!status.configured) return <PitNotConfigured />;
  return <PitBoard status={status} nowMs={nowMs} />;
}

/** Before the first status: the board's frame, quiet, so nothing jumps when data comes. */
function PitLoading() {
  return (
    <section className="pit pit--loading" aria-labelledby="pit-title" aria-busy="true">
      <div className="pit-hero pit-hero--none">
        <h1 id="pit-title" className="pit-hero__eyebrow">
          Pit display
        </h1>
        <p className="pit-hero__quiet">Loading event data…</p>
      </div>
      <div className="pit-panel pit-facts" />
      <div className="pit-panel pit-matches" />
      <div className="pit-panel pit-notices" />
      <div className="pit-panel pit-links" />
      <div className="pit-bar" />
    </section>
  );
}

/** No event set: how to set one. Not an error. */
function PitNotConfigured() {
  return (
    <section className="pit pit--setup" aria-labelledby="pit-title">
      <div className="pit-setup">
        <h1 id="pit-title" className="pit-setup__title">
          No event set
        </h1>
        <p>
          The pit display shows our next match, its queue time, our rank and the event’s
          announcements once the app knows which event we are at.
        </p>
        <ul className="pit-setup__steps">
          <li>
            Start it with <code>--event KEY</code>, the event’s key on The Blue Alliance, like{' '}
            <code>2026okok</code>.
          </li>
          <li>
            Give it the API keys in <code>NEXUS_API_KEY</code> (FRC Nexus) and{' '}
            <code>TBA_API_KEY</code> (The Blue Alliance).
          </li>
          <li>
            To try the page without keys, start it with <code>--event demo</code>.
          </li>
        </ul>
      </div>
    </section>
  );
}

/** The size step of a match label: the longer it is, the smaller, so it stays whole. */
function labelSize(label: string): string {
  if (label.length > 30) return ' pit-hero__label--longer';
  if (label.length > 18) return ' pit-hero__label--long';
  return '';
}

/** Team numbers joined for reading from afar: "2363 · 4499". */
const teams = (list: readonly string[]) => list.join(' · ');

/** The next match, largest on the page, on our alliance's colour. */
function NextMatch({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const match: Match | null = status.nextMatch;
  if (!match) {
    return (
      <div className="pit-hero pit-hero--none">
        <h1 id="pit-title" className="pit-hero__eyebrow">
          Next match
        </h1>
        <p className="pit-hero__quiet">{noNextMatchText(status)}</p>
      </div>
    );
  }
  const alliance = match.alliance === 'red' || match.alliance === 'blue' ? match.alliance : 'none';
  const countdown = countdownFor(match, nowMs);
  const tone = statusTone(match);
  const partners = partnersOf(match, status.team);
  const opponents = opponentsOf(match);
  const after = breakText(match);
  return (
    <div className={`pit-hero pit-hero--${alliance} pit-hero--${tone}`}>
      <h1 id="pit-title" className="pit-hero__title">
        <span className="pit-hero__eyebrow">
          Next match{alliance !== 'none' && ` · ${alliance === 'red' ? 'Red' : 'Blue'} alliance`}
        </span>
        <span className={`pit-hero__label${labelSize(match.label)}`}>{match.label}</span>
      </h1>
      {match.replayOf && <p className="pit-hero__replay">Replay of {match.replayOf}</p>}
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
      {(partners.length > 0 || opponents.length > 0) && (
        <p className="pit-hero__teams">
          {partners.length > 0 && (
            <span>
              With <strong>{teams(partners)}</strong>
            </span>
          )}
          {opponents.length > 0 && (
            <span>
              vs <strong>{teams(opponents)}</strong>
            </span>
          )}
        </p>
      )}
      {after && <p className="pit-hero__break">{after}</p>}
    </div>
  );
}

/** Rank, record and our pit. */
function Facts({ status }: { status: EventStatus }) {
  return (
    <section className="pit-panel pit-facts" aria-label="Standing">
      <dl className="pit-facts__list">
        <div className="pit-fact pit-fact--rank">
          <dt className="visually-hidden">Rank</dt>
          <dd className="pit-fact__value">{status.rank ? rankText(status.rank) : 'Unranked'}</dd>
        </div>
        <div className="pit-fact">
          <dt className="pit-fact__label">W-L-T</dt>
          <dd className="pit-fact__value">{status.rank ? recordText(status.rank.record) : '—'}</dd>
        </div>
        <div className="pit-fact">
          <dt className="pit-fact__label">Our pit</dt>
          <dd className="pit-fact__value">{status.pit ? `Pit ${status.pit}` : '—'}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The QR code to the public site and the event's webcasts. */
function Links({ status }: { status: EventStatus }) {
  // The window's own origin is wails://: it points at --site-url instead.
  const qr = qrTarget(window.location.origin, usePlatform().siteUrl ?? undefined);
  // Three at most: the panel has room for no more.
  const webcasts = webcastLinks(status.webcasts).slice(0, 3);
  return (
    <section className="pit-panel pit-links" aria-label="Follow along">
      {qr && (
        <figure className="pit-links__qr">
          <PitQr url={qr} label="Our website" className="pit-links__code" />
          <figcaption>Scan for our site</figcaption>
        </figure>
      )}
      <div className="pit-links__watch">
        <h2 className="pit-panel__title">Watch live</h2>
        {webcasts.length === 0 ? (
          <p className="pit-links__none">No webcast listed</p>
        ) : (
          <ul className="pit-links__list">
            {webcasts.map((w) => (
              <li key={w.href}>
                <a href={w.href} target="_blank" rel="noreferrer">
                  {w.label}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** The board with data: warnings over everything, then the panels, then the sources. */
function PitBoard({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const warnings = warningsFor(status, nowMs);
  return (
    <section className="pit" aria-labelledby="pit-title">
      {warnings.length > 0 && (
        <div className="pit-warning" role="status">
          {warnings.map((w) => (
            <p key={w}>{w}</p>
          ))}
        </div>
      )}
      <NextMatch status={status} nowMs={nowMs} />
      <Facts status={status} />
      <PitMatches status={status} />
      <PitNotices status={status} />
      <Links status={status} />
      <footer className="pit-bar">
        <p className="pit-bar__asof">
          {status.eventName && <span className="pit-bar__event">{status.eventName}</span>}
          <span>{asOfText(status.asOf, nowMs, status.timezone)}</span>
        </p>
        <p className="pit-bar__credits">
          <a href="https://frc.nexus" target="_blank" rel="noreferrer">
            Live data from FRC Nexus
          </a>
          <a href="https://www.thebluealliance.com" target="_blank" rel="noreferrer">
            Powered by The Blue Alliance
          </a>
        </p>
      </footer>
    </section>
  );
}
