import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakePlatform } from '../components/test-platform';
import { Routes } from '../lib/spec.gen';
import { PlatformContext } from '../platform';
import type { EventStatus, Match } from '../platform/types';
import Pit from './pit';

const t0 = Date.parse('2026-03-14T15:00:00Z');
const min = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const zeroTime = '0001-01-01T00:00:00Z';

function match(over: Partial<Match> = {}): Match {
  return {
    key: '2026okok_qm14',
    label: 'Qualification 14',
    status: 'Queuing soon',
    step: 0,
    urgent: false,
    alliance: 'red',
    red: ['1209', '2363', '4499'],
    blue: ['118', '254', '1678'],
    partners: ['2363', '4499'],
    times: {
      queue: iso(t0 + 4 * min + 32_000),
      onDeck: iso(t0 + 15 * min),
      onField: iso(t0 + 20 * min),
      start: iso(t0 + 22 * min),
      scheduled: iso(t0 + 25 * min),
      actualStart: null,
    },
    breakAfter: 'Lunch',
    redScore: null,
    blueScore: null,
    result: '',
    replayOf: '',
    timeKind: 'estimated',
    turnaround: '',
    ...over,
  };
}

function fullStatus(over: Partial<EventStatus> = {}): EventStatus {
  return {
    configured: true,
    message: '',
    team: 1209,
    eventKey: '2026okok',
    nexusEventKey: '2026okok',
    eventName: 'Oklahoma Regional',
    timezone: 'UTC',
    phase: 'qualifications',
    nextMatch: match(),
    upcoming: [
      match({ key: 'qm20', label: 'Qualification 20', status: '', breakAfter: '' }),
      match({ key: 'qm27', label: 'Qualification 27', status: '', alliance: 'blue' }),
    ],
    recent: [
      match({
        key: 'qm9',
        label: 'Qualification 9',
        status: '',
        redScore: 85,
        blueScore: 72,
        result: 'win',
      }),
      match({
        key: 'qm5',
        label: 'Qualification 5',
        status: '',
        alliance: 'blue',
        redScore: 80,
        blueScore: 61,
        result: 'loss',
      }),
    ],
    onField: match({
      key: 'qm12',
      label: 'Qualification 12',
      status: 'On field',
      step: 3,
      alliance: '',
    }),
    nowQueuing: 'Qualification 13',
    rank: { rank: 7, of: 40, record: { wins: 5, losses: 2, ties: 0 } },
    pit: 'B12',
    announcements: [
      { id: 'a1', text: 'Lunch is served in the cafeteria', posted: iso(t0 - 30 * min) },
      { id: 'a2', text: 'Drive teams meet at the scoring table', posted: iso(t0 - 5 * min) },
    ],
    partsRequests: [
      { id: 'p1', team: '118', parts: 'A 4" colson wheel', posted: iso(t0 - 10 * min) },
    ],
    webcasts: [{ type: 'twitch', url: 'https://www.twitch.tv/firstinspires' }],
    nexus: { state: 'ok', message: '', asOf: iso(t0 - 2 * min) },
    tba: { state: 'ok', message: '', asOf: iso(t0 - 3 * min) },
    asOf: iso(t0 - 2 * min),
    stale: false,
    feedDown: false,
    schedule: [],
    rankCriteria: [],
    rankTrend: [],
    fieldLateMinutes: null,
    playoffs: null,
    teamCards: [],
    prediction: null,
    ...over,
  };
}

function renderPit() {
  const fake = createFakePlatform(t0);
  render(
    <PlatformContext value={fake.platform}>
      <Pit />
    </PlatformContext>,
  );
  return {
    push: (status: EventStatus) => act(() => fake.pushEvent(status)),
    tick: (ms: number) => act(() => fake.tick(ms)),
  };
}

const warning = () => document.querySelector('.pit-warning');

describe('Pit', () => {
  afterEach(cleanup);

  it('shows a quiet loading frame before the first status', () => {
    renderPit();
    expect(document.title).toBe(Routes['/pit'].title);
    expect(screen.getByText('Loading event data…')).toBeInTheDocument();
    expect(document.querySelector('.pit')).toHaveAttribute('aria-busy', 'true');
    // The panels are laid out already, so nothing jumps when the data comes.
    expect(document.querySelectorAll('.pit-panel')).toHaveLength(4);
    expect(warning()).toBeNull();
  });

  it('explains how to set an event when none is configured, calmly', () => {
    const { push } = renderPit();
    push({ ...fullStatus(), configured: false, nextMatch: null, asOf: zeroTime });
    expect(screen.getByRole('heading', { level: 1, name: 'No event set' })).toBeInTheDocument();
    for (const words of ['--event KEY', 'NEXUS_API_KEY', 'TBA_API_KEY', '--event demo']) {
      expect(screen.getByText(words)).toBeInTheDocument();
    }
    expect(warning()).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the full status, with the countdown following the ticks', () => {
    const { push, tick } = renderPit();
    push(fullStatus());
    expect(screen.getByText('Qualification 14')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Next match · Red allianceQualification 14',
    );
    expect(screen.getByText('Queuing soon')).toHaveClass('pit-pill--calm');
    expect(screen.getByRole('timer')).toHaveTextContent('Queue in 4:32');
    tick(t0 + 1000);
    expect(screen.getByRole('timer')).toHaveTextContent('Queue in 4:31');
    tick(t0 + 4 * min + 32_000);
    expect(screen.getByRole('timer')).toHaveTextContent('On deck in 10:28');

    expect(screen.getByText('Rank 7 of 40')).toBeInTheDocument();
    expect(screen.getByText('5-2-0')).toBeInTheDocument();
    expect(screen.getByText('Pit B12')).toBeInTheDocument();
    expect(screen.getByText('2363 · 4499')).toBeInTheDocument();
    expect(screen.getByText('118 · 254 · 1678')).toBeInTheDocument();
    expect(screen.getByText('Lunch after this match')).toBeInTheDocument();
    expect(screen.getByText('Qualification 12')).toBeInTheDocument();
    expect(screen.getByText('Qualification 13')).toBeInTheDocument();
    expect(screen.getByText('W 85–72')).toBeInTheDocument();
    expect(screen.getByText('L 61–80')).toBeInTheDocument();
    expect(screen.getByText('Qualification 20')).toBeInTheDocument();
    expect(screen.getByText('Qualification 27')).toBeInTheDocument();

    const notices = within(screen.getByRole('region', { name: /Announcements/ }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(notices).toEqual([
      '14:55Drive teams meet at the scoring table',
      '14:50Team 118 needsA 4" colson wheel',
      '14:30Lunch is served in the cafeteria',
    ]);

    expect(screen.getByRole('link', { name: 'Live data from FRC Nexus' })).toHaveAttribute(
      'href',
      'https://frc.nexus',
    );
    expect(screen.getByRole('link', { name: 'Powered by The Blue Alliance' })).toHaveAttribute(
      'href',
      'https://www.thebluealliance.com',
    );
    expect(screen.getByRole('link', { name: 'Twitch (twitch.tv)' })).toHaveAttribute(
      'href',
      'https://www.twitch.tv/firstinspires',
    );
    expect(screen.getByRole('img', { name: /^Our website: http/ })).toBeInTheDocument();
    expect(screen.getByText('Data as of 14:58 (6 min ago)')).toBeInTheDocument();
    expect(warning()).toBeNull();
  });

  it('marks queuing and on deck urgent', () => {
    const { push } = renderPit();
    push(fullStatus({ nextMatch: match({ status: 'Now queuing', step: 1, urgent: true }) }));
    expect(screen.getByText('Now queuing')).toHaveClass('pit-pill--urgent');
    expect(screen.getByRole('timer')).toHaveTextContent('On deck in 15:00');
    push(fullStatus({ nextMatch: match({ status: 'On deck', step: 2, urgent: true }) }));
    expect(screen.getByText('On deck')).toHaveClass('pit-pill--urgent');
    expect(screen.getByRole('timer')).toHaveTextContent('Starts in 22:00');
  });

  it('warns when the server calls the data stale, still showing the last data', () => {
    const { push, tick } = renderPit();
    push(fullStatus({ asOf: iso(t0) }));
    tick(t0 + 10 * min);
    expect(warning()).toBeNull();
    push(fullStatus({ asOf: iso(t0), stale: true }));
    tick(t0 + 10 * min + 1000);
    expect(warning()).toHaveTextContent('No fresh data for 10 min — showing the last known');
    tick(t0 + 14 * min);
    expect(warning()).toHaveTextContent('No fresh data for 14 min — showing the last known');
    expect(screen.getByText('Qualification 14')).toBeInTheDocument();
    expect(screen.getByText('Rank 7 of 40')).toBeInTheDocument();
    expect(screen.getByText('Data as of 15:00 (14 min ago)')).toBeInTheDocument();
  });

  it('warns when the event’s data feed is down', () => {
    const { push } = renderPit();
    push(fullStatus({ feedDown: true }));
    expect(warning()).toHaveTextContent('The event’s data feed is down');
    expect(screen.getByText('Qualification 14')).toBeInTheDocument();
  });

  it('says a source’s trouble in its own words when there is no data at all', () => {
    const { push } = renderPit();
    push(
      fullStatus({
        nextMatch: null,
        upcoming: null,
        recent: null,
        onField: null,
        rank: null,
        announcements: null,
        partsRequests: null,
        webcasts: null,
        asOf: zeroTime,
        nexus: { state: 'key rejected', message: 'Nexus key rejected', asOf: zeroTime },
      }),
    );
    expect(warning()).toHaveTextContent('Nexus key rejected');
    expect(screen.getByText('No data yet')).toBeInTheDocument();
  });

  it('renders hostile strings as text, never as markup', () => {
    const { push } = renderPit();
    const hostile = '<img src=x onerror=alert(1)>';
    push(
      fullStatus({
        announcements: [{ id: 'x', text: hostile, posted: iso(t0) }],
        partsRequests: [{ id: 'y', team: '<b>1</b>', parts: hostile, posted: iso(t0) }],
        nextMatch: match({ label: '<script>alert(1)</script>', status: '<i>On deck</i>' }),
      }),
    );
    expect(screen.getAllByText(hostile, { exact: false })).toHaveLength(2);
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(screen.getByText('<i>On deck</i>')).toBeInTheDocument();
    expect(document.querySelector('.pit img, .pit script, .pit b, .pit i')).toBeNull();
  });

  it('says so calmly when there is no next match, still showing the rest', () => {
    const { push } = renderPit();
    push(fullStatus({ nextMatch: null, upcoming: [] }));
    expect(screen.getByText('No more matches scheduled for us right now')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('Rank 7 of 40')).toBeInTheDocument();
    expect(screen.getByText('Qualification 9')).toBeInTheDocument();
    expect(screen.getByText('Drive teams meet at the scoring table')).toBeInTheDocument();
    expect(warning()).toBeNull();

    push(fullStatus({ nextMatch: null, upcoming: [], recent: [], rank: null }));
    expect(screen.getByText('Our match schedule is not out yet')).toBeInTheDocument();
  });
});
