import { useRef } from 'react';
import { AllianceList } from './alliances';
import { Bracket } from './bracket';
import { useFitPanels } from './fit';
import { PitMatches } from './matches';
import { NextMatch } from './next-match';
import { PlayoffHero, SelectionHero } from './playoff';
import { Standing } from './standing';
import { TeamCards } from './team-cards';
import { PitNoticeLine } from './notice-line';
import { PitNotices } from './notices';
import { PitQr } from './qr';
import { useEvent } from '../../shared/use-event';
import { useNow } from '../../shared/use-now';
import { useRouteHead } from '../../shared/use-route-head';
import { usePlatform } from '../../platform';
import {
  asOfText,
  boardPhase,
  calendarUrl,
  followUrl,
  qrTarget,
  warningsFor,
  webcastLinks,
} from './board';
import type { EventStatus } from '../../platform/types';
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
      <div className="pit-top">
        <PitNoticeLine />
      </div>
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
        <PitNoticeLine />
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

/**
 * The QR codes to the follow page (issue 37: the live event and alerts on a
 * phone; it links back to the site) and to our matches' calendar, and the
 * event's webcasts.
 */
function Links({ status }: { status: EventStatus }) {
  // The window's own origin is wails://: it points at --site-url instead.
  const qr = qrTarget(window.location.origin, usePlatform().siteUrl ?? undefined);
  const calendar = calendarUrl(qr, status.team);
  const follow = followUrl(qr);
  // Three at most: the panel has room for no more.
  const webcasts = webcastLinks(status.webcasts).slice(0, 3);
  return (
    <section className="pit-panel pit-links" aria-label="Follow along">
      {qr && (
        <div className="pit-links__codes">
          <figure className="pit-links__qr">
            <PitQr url={follow} label="Follow us live" className="pit-links__code" />
            <figcaption>Follow us live</figcaption>
          </figure>
          <figure className="pit-links__qr">
            <PitQr url={calendar} label="Our matches’ calendar" className="pit-links__code" />
            <figcaption>Calendar</figcaption>
          </figure>
        </div>
      )}
      <div className="pit-links__watch">
        <a className="pit-links__calendar" href={calendar}>
          Add our matches to your calendar
        </a>
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

/** The panels of the board in the event's phase. */
function PhasePanels({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const phase = boardPhase(status.phase);
  if (phase === 'qualifications') {
    return (
      <>
        <NextMatch status={status} nowMs={nowMs} />
        <Standing status={status} />
        <PitMatches status={status} />
        <TeamCards status={status} />
      </>
    );
  }
  if (phase === 'selection') {
    return (
      <>
        <SelectionHero status={status} />
        <AllianceList playoffs={status.playoffs} team={status.team} />
      </>
    );
  }
  const playoffs = status.playoffs;
  const bracket = (playoffs?.bracket ?? []).length > 0;
  return (
    <>
      <PlayoffHero status={status} nowMs={nowMs} />
      {playoffs && bracket ? (
        <Bracket playoffs={playoffs} />
      ) : (
        <AllianceList playoffs={playoffs} team={status.team} />
      )}
      <TeamCards status={status} />
    </>
  );
}

/** The board with data: warnings over everything, then the panels, then the sources. */
function PitBoard({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const warnings = warningsFor(status, nowMs);
  const phase = boardPhase(status.phase);
  const cards = (status.teamCards ?? []).length > 0;
  const board = useRef<HTMLElement>(null);
  useFitPanels(board, [status, nowMs]);
  return (
    <section
      ref={board}
      className={`pit pit--${phase}${cards ? ' pit--cards' : ''}`}
      aria-labelledby="pit-title"
      data-phase={phase}
    >
      <div className="pit-top">
        <PitNoticeLine />
        {warnings.length > 0 && (
          <div className="pit-warning" role="status">
            {warnings.map((w) => (
              <p key={w}>{w}</p>
            ))}
          </div>
        )}
      </div>
      <PhasePanels status={status} nowMs={nowMs} />
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
