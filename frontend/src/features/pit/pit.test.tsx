import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakePlatform } from '../../shared/test-platform';
import { Routes } from '../../gen/spec.gen';
import { PlatformContext } from '../../platform';
import type { EventStatus, Match } from '../../platform/types';
import {
  iso,
  matchQueuingAt,
  min,
  phaseStatus,
  statusAt,
  zeroTime,
} from '../../shared/event/fixtures';
import Pit from './pit';

const t0 = Date.parse('2026-03-14T15:00:00Z');

/** Our next match, queuing in 4:32, with lunch after it. */
function match(over: Partial<Match> = {}): Match {
  return matchQueuingAt(t0 + 4 * min + 32_000, {
    status: 'Queuing soon',
    breakAfter: 'Lunch',
    ...over,
  });
}

/** Every panel filled: matches before and after ours, a rank, notices and a webcast. */
function fullStatus(over: Partial<EventStatus> = {}): EventStatus {
  return statusAt(t0, {
    timezone: 'UTC',
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
    ...over,
  });
}

function renderPit() {
  const fake = createFakePlatform(t0);
  render(
    <PlatformContext.Provider value={fake.platform}>
      <Pit />
    </PlatformContext.Provider>,
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
    expect(screen.getByRole('timer')).toHaveTextContent('On deck in 10:00');

    for (const text of [
      'Rank 7 of 40',
      '5-2-0',
      'Pit B12',
      '2363 · 4499',
      '118 · 254 · 1678',
      'Lunch after this match',
      'Qualification 12',
      'Qualification 13',
      'W 85–72',
      'L 61–80',
      'Qualification 20',
      'Qualification 27',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }

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
    expect(
      screen.getByRole('img', { name: `Follow us live: ${window.location.origin}/follow` }),
    ).toBeInTheDocument();
    expect(screen.getByText('Data as of 14:58 (6 min ago)')).toBeInTheDocument();
    expect(warning()).toBeNull();
  });

  it('marks queuing and on deck urgent', () => {
    const { push } = renderPit();
    push(fullStatus({ nextMatch: match({ status: 'Now queuing', step: 1, urgent: true }) }));
    expect(screen.getByText('Now queuing')).toHaveClass('pit-pill--urgent');
    expect(screen.getByRole('timer')).toHaveTextContent('On deck in 14:32');
    push(fullStatus({ nextMatch: match({ status: 'On deck', step: 2, urgent: true }) }));
    expect(screen.getByText('On deck')).toHaveClass('pit-pill--urgent');
    expect(screen.getByRole('timer')).toHaveTextContent('Starts in 21:32');
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

const region = (name: RegExp | string) => screen.getByRole('region', { name });

// The statuses of phaseStatus are written at t0.
describe('Pit through the whole event', () => {
  afterEach(cleanup);

  it('qualifications: turnaround, time kinds, field pace, criteria, trend, team cards, calendar', () => {
    const { push } = renderPit();
    push(phaseStatus('qualifications'));
    expect(document.querySelector('.pit')).toHaveAttribute('data-phase', 'qualifications');
    expect(screen.getByRole('note')).toHaveTextContent('2-match turnaround');
    expect(screen.getByText('Field running 12 min late')).toBeInTheDocument();
    const time = document.querySelector('.pit-hero__time');
    expect(time).toHaveTextContent(/^Starts 10:22 estimated/);
    const then = within(region('Matches'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(then).toContain('blue allianceQualification 38~11:10 est.estimated');
    expect(then).toContain('red allianceQualification 45~11:58 sched.scheduled');

    const standing = region('Standing');
    expect(within(standing).getByText('Rank 7 of 40')).toBeInTheDocument();
    expect(within(standing).getByText('Top 8: 64% · likely 6th–11th')).toBeInTheDocument();
    const criteria = within(standing).getByRole('group', { name: 'Ranking criteria' });
    expect(criteria).toHaveTextContent('Ranking Score2.17');
    expect(criteria).toHaveTextContent('Avg Barge12.0');
    expect(
      within(standing).getByRole('img', { name: 'Rank after each match: 18, 12, 9, 11, 8, 9, 7' }),
    ).toBeInTheDocument();

    const teams = region('Next match teams');
    expect(within(teams).getByRole('list', { name: 'Red alliance' })).toHaveTextContent(
      /^1209RoboHornetsOPR 31\.4Top 8 64%2363Triple HelixOPR 27\.9Top 8 21%4499The HighlandersOPR 18\.2Top 8 5%$/,
    );
    expect(within(teams).getByRole('list', { name: 'Blue alliance' })).toHaveTextContent(
      '254The Cheesy PoofsOPR 35.6Top 8 > 99%1678Citrus CircuitsOPR —Top 8 48%',
    );
    expect(teams).toHaveTextContent('Win chance 62%');
    expect(teams).toHaveTextContent('OPR computed by this program from 42 played matches');
    expect(document.querySelector('.pit-card--us')).toHaveTextContent(/^1209/);

    expect(screen.getByRole('link', { name: 'Add our matches to your calendar' })).toHaveAttribute(
      'href',
      `${window.location.origin}/pit/1209.ics`,
    );
    expect(
      screen.getByRole('img', {
        name: `Our matches’ calendar: ${window.location.origin}/pit/1209.ics`,
      }),
    ).toBeInTheDocument();
  });

  it('qualifications without cards, prediction, pace or trend: those parts are simply absent', () => {
    const { push } = renderPit();
    push({
      ...phaseStatus('qualifications'),
      teamCards: null,
      prediction: null,
      fieldLateMinutes: null,
      rankTrend: [7],
      rankCriteria: null,
    });
    expect(screen.queryByRole('region', { name: 'Next match teams' })).toBeNull();
    expect(document.querySelector('.pit')).not.toHaveClass('pit--cards');
    expect(screen.queryByText(/Field running|Field on time/)).toBeNull();
    expect(screen.queryByRole('group', { name: 'Ranking criteria' })).toBeNull();
    expect(screen.queryByRole('img', { name: /Rank after each match/ })).toBeNull();
    expect(screen.getByText('Rank 7 of 40')).toBeInTheDocument();
  });

  it('alliance selection: our final rank and alliance, every alliance with ours highlighted', () => {
    const { push } = renderPit();
    push(phaseStatus('selection'));
    expect(document.querySelector('.pit')).toHaveAttribute('data-phase', 'selection');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Alliance selection · First pickAlliance 3',
    );
    expect(screen.getByText('2363 · 4414')).toBeInTheDocument();
    expect(screen.getByText('Final qualification rank 5 of 40 · 8-2-0')).toBeInTheDocument();
    const list = within(region(/^Alliances/));
    const rows = list.getAllByRole('listitem').filter((li) => li.getAttribute('aria-label'));
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual([
      'Alliance 1: Captain 254, picks 1678, 971',
      'Alliance 2: Captain 118, picks 148, 3310',
      'Alliance 3 (ours): Captain 2363, picks 1209, 4414',
      'Alliance 4: Captain 1477, pick 2468',
      'Alliance 5: Captain 5172',
      'Alliance 6: Captain 2357',
      'Alliance 7: Captain 6328',
      'Alliance 8: Captain 4143',
    ]);
    expect(rows[2]).toHaveClass('pit-alliances__row--ours');
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('alliance selection, not picked: calm, with the alliances', () => {
    const { push } = renderPit();
    push(phaseStatus('selection-not-picked'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Not on an alliance yet');
    expect(screen.getByText('Final qualification rank 24 of 40 · 4-6-0')).toBeInTheDocument();
    expect(region('Alliances')).toBeInTheDocument();
    expect(document.querySelector('.pit-alliances__row--ours')).toBeNull();
    expect(warning()).toBeNull();
  });

  it('alliance selection over without us: not selected, thank you', () => {
    const { push } = renderPit();
    const status = phaseStatus('selection-not-picked');
    push({ ...status, playoffs: status.playoffs && { ...status.playoffs, selectionDone: true } });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Not selected — thank you');
    expect(region('Alliances')).toBeInTheDocument();
  });

  it('playoffs: our alliance and colour, countdown, what follows, bracket with our path', () => {
    const { push } = renderPit();
    push(phaseStatus('playoffs'));
    expect(document.querySelector('.pit')).toHaveAttribute('data-phase', 'playoffs');
    expect(document.querySelector('.pit-hero')).toHaveClass('pit-hero--red');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Alliance 3 · Red alliancePlayoff 10',
    );
    expect(screen.getByRole('note')).toHaveTextContent('Back to back');
    expect(screen.getByRole('timer')).toHaveTextContent('On deck in 2:00');
    expect(screen.getByText('If we win → Playoff 12 (red)')).toBeInTheDocument();
    expect(screen.getByText('If we lose → eliminated')).toBeInTheDocument();
    expect(screen.getByText('Alliance 4')).toBeInTheDocument();
    expect(screen.getByText('Field running 5 min early')).toBeInTheDocument();

    const bracket = region(/^Bracket/);
    const upper1 = within(bracket).getByRole('list', { name: 'Upper bracket, Round 1' });
    expect(within(upper1).getAllByRole('listitem')).toHaveLength(4);
    expect(
      within(bracket).getByRole('list', { name: 'Lower bracket, Round 3' }),
    ).toBeInTheDocument();
    const ours = [...bracket.querySelectorAll('.pit-bm--ours')].map((li) =>
      li.getAttribute('aria-label'),
    );
    expect(ours).toEqual([
      'Playoff 4: Alliance 3 (red) vs Alliance 6 (blue), won by Alliance 3, ours',
      'Playoff 8: Alliance 2 (red) vs Alliance 3 (blue), won by Alliance 2, ours',
      'Playoff 10: Alliance 3 (red) vs Alliance 4 (blue), ours',
    ]);
    expect(
      within(bracket).getByRole('listitem', {
        name: 'Finals: Winner of Playoff 11 (red) vs Winner of Playoff 13 (blue)',
      }),
    ).toBeInTheDocument();
    expect(region('Next match teams')).toHaveTextContent('Win chance 47%');
  });

  it('playoffs, finals: the series so far', () => {
    const { push } = renderPit();
    push(phaseStatus('finals'));
    expect(screen.getByText('Finals: 1–1, match 3')).toBeInTheDocument();
    expect(document.querySelector('.pit-hero')).toHaveClass('pit-hero--blue');
    expect(screen.getByText('If we win → event winners')).toBeInTheDocument();
    expect(
      screen.getByRole('listitem', {
        name: 'Finals: Alliance 2 (red) vs Alliance 3 (blue) (1–1), ours',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Field on time')).toBeInTheDocument();
  });

  it('eliminated: says so with the round, and still shows the bracket', () => {
    const { push } = renderPit();
    push(phaseStatus('eliminated'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Playoffs · Alliance 3Eliminated in Round 4',
    );
    expect(screen.getByText('Playoff record 2-2-0')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Next match teams' })).toBeNull();
    expect(region(/^Bracket/)).toBeInTheDocument();
  });

  it('finished as winners', () => {
    const { push } = renderPit();
    push(phaseStatus('winners'));
    expect(document.querySelector('.pit')).toHaveAttribute('data-phase', 'finished');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Event winners');
    expect(document.querySelector('.pit-hero')).toHaveClass('pit-hero--gold');
    expect(
      screen.getByRole('listitem', {
        name: 'Finals: Alliance 2 (red) vs Alliance 3 (blue), won by Alliance 3 (1–2), ours',
      }),
    ).toBeInTheDocument();
  });

  it('not selected during the playoffs: a calm thank-you over the bracket', () => {
    const { push } = renderPit();
    push(phaseStatus('not-selected'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Not selected — thank you');
    expect(document.querySelector('.pit-hero')).toHaveClass('pit-hero--none');
    expect(region(/^Bracket/)).toBeInTheDocument();
    expect(document.querySelector('.pit-bm--ours')).toBeNull();
    expect(warning()).toBeNull();
  });

  it('playoffs without a known bracket: the alliances instead', () => {
    const { push } = renderPit();
    const status = phaseStatus('playoffs');
    const playoffs = status.playoffs;
    if (!playoffs) throw new Error('the playoffs fixture has no playoffs');
    push({ ...status, playoffs: { ...playoffs, type: 4, bracket: [] } });
    expect(screen.queryByRole('region', { name: /^Bracket/ })).toBeNull();
    expect(region(/^Alliances/)).toBeInTheDocument();
  });
});
