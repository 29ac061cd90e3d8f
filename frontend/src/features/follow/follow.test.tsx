// The follow page read from the board's own statuses (shared/event/testdata,
// written by Go's TestPitFixtures) and from made-up ones: what a parent reads
// in each phase, offline and when the data is old. The push boundary is a fake.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformContext } from '../../platform';
import type { EventStatus } from '../../platform/types';
import { contractStatus, statusAt } from '../../shared/event/fixtures';
import { createFakePlatform } from '../../shared/test-platform';
import Follow from './follow';
import type { NotifyDeps } from './notify';

/** The moment the board's fixtures are written at. */
const t0 = Date.parse('2026-03-14T15:00:00Z');

/** A push boundary with no push at all (the Notify-me tests drive a working one). */
function noPush(): NotifyDeps {
  return {
    browser: {
      support: () => ({ push: false, ios: false, standalone: false }),
      permission: () => 'default',
      requestPermission: async () => 'default',
      current: async () => null,
      subscribe: async () => {
        throw new Error('no push');
      },
    },
    api: {
      key: async () => 'AAAA',
      subscribe: async () => {},
      unsubscribe: async () => {},
    },
    store: { load: () => null, save: () => {} },
  };
}

/** Renders the page; the live stream gives live (unless null), GET /api/event answers snapshot. */
function show(
  live: EventStatus | null,
  { snapshot = null, push = noPush() }: { snapshot?: EventStatus | null; push?: NotifyDeps } = {},
) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      snapshot
        ? new Response(JSON.stringify(snapshot), { status: 200 })
        : new Response('', { status: 503 }),
    ),
  );
  const fake = createFakePlatform(t0);
  render(
    <PlatformContext.Provider value={fake.platform}>
      <MemoryRouter initialEntries={['/follow']}>
        <Follow push={push} />
      </MemoryRouter>
    </PlatformContext.Provider>,
  );
  if (live) act(() => fake.pushEvent(live));
  return fake;
}

/** The text of the card headed heading. */
function card(heading: string): string {
  const section = screen.getByRole('heading', { name: heading }).closest('section');
  if (!section) throw new Error(`no card ${heading}`);
  return section.textContent ?? '';
}

describe('the follow page', () => {
  beforeEach(() => {
    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says where we are, which day, and links the first webcast', () => {
    show(
      statusAt(t0, {
        eventName: 'Oklahoma Regional',
        eventPlace: 'Tulsa, OK, USA',
        eventStart: '2026-03-13',
        eventEnd: '2026-03-15',
        webcasts: [
          { type: 'twitch', url: 'https://www.twitch.tv/firstinspires' },
          { type: 'youtube', url: 'https://www.youtube.com/watch?v=abc' },
        ],
      }),
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Oklahoma Regional');
    expect(screen.getByText('Tulsa, OK, USA · day 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Watch live/ })).toHaveAttribute(
      'href',
      'https://www.twitch.tv/firstinspires',
    );
  });

  it('shows our next match, its queue status, colour, partners, opponents, result and standing (qualifications board)', () => {
    show(contractStatus('qualifications'));
    const next = card('Our next match');
    expect(next).toContain('Qualification 5');
    expect(next).toContain('On deck');
    expect(next).toContain('Red alliance');
    expect(next).toContain('With254 and 1678');
    expect(next).toContain('Against111, 222 and 333');
    expect(next).toContain('your time');
    expect(next).toContain('Field now queuing: Qualification 6');
    const standing = card('How we’re doing');
    expect(standing).toContain('Tied 70–70 Qualification 3');
    expect(standing).toContain('Rank 9 of 30 · record 3-2-0');
    expect(standing).toContain('Top 8: 64% · likely 6th–11th');
  });

  it('counts down to the next step', () => {
    const fake = show(statusAt(t0));
    expect(card('Our next match')).toContain('Queue in 10:00');
    act(() => fake.tick(t0 + 60_000));
    expect(card('Our next match')).toContain('Queue in 9:00');
  });

  it('leaves the forecast out when there is none', () => {
    show({ ...contractStatus('qualifications'), forecast: null });
    expect(card('How we’re doing')).not.toContain('Top 8');
  });

  it.each([
    ['playoffs-lower', ['Alliance 3', 'If we win → Playoff 9 (blue)', 'If we lose → eliminated']],
    ['finals-1-1', ['Finals: 1–1, match 3', 'If we win → event winners']],
    ['eliminated', ['Eliminated in Round 2', 'Playoff record 0-2-0']],
    ['winners', ['Event winners', 'Playoff record 6-1-0']],
    ['selection-done', ['Alliance 3 · First pick']],
    ['not-selected', ['We are not on a playoff alliance']],
  ])('reads the %s board', (name, says) => {
    show(contractStatus(name));
    const text = card(name.startsWith('selection') ? 'Alliance selection' : 'Playoffs');
    for (const words of says) expect(text).toContain(words);
  });

  it('is friendly between events, with the server’s reason', () => {
    show({ ...statusAt(t0), configured: false, message: 'No event found for team 1209 today' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Between events');
    expect(screen.getByText(/No event found for team 1209 today/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Our next match' })).toBeNull();
  });

  it('lists the season between events: dates and place, and how the events that are over went', () => {
    show({
      ...statusAt(t0),
      configured: false,
      message: 'No event found for team 1209 today',
      season: [
        {
          key: '2026arfs',
          name: 'Fort Smith Regional',
          place: 'Fort Smith, AR, USA',
          start: '2026-02-26',
          end: '2026-02-28',
          rank: 12,
          of: 38,
          record: { wins: 5, losses: 4, ties: 0 },
          playoff: { kind: 'eliminated', alliance: 5, level: 'bracket', round: 4, record: null },
          awards: ["Judges' Award"],
        },
        {
          key: '2026okcmp',
          name: 'Oklahoma State Championship',
          place: 'Tulsa, OK, USA',
          start: '2026-04-09',
          end: '2026-04-11',
          rank: 0,
          of: 0,
          record: null,
          playoff: { kind: 'none', alliance: 0, round: 0 },
          awards: [],
        },
      ],
    });
    const season = screen.getByRole('region', { name: 'Our season' });
    const [past, next] = within(season).getAllByRole('listitem');
    expect(past).toHaveTextContent('Fort Smith Regional');
    expect(past).toHaveTextContent(
      "Rank 12 of 38 · 5-4-0 · Out in Round 4 (Alliance 5) · Judges' Award",
    );
    expect(next).toHaveTextContent('Oklahoma State Championship');
    expect(next).toHaveTextContent('Tulsa, OK, USA · to come');
  });

  it('says when the data is old, as the pit does', () => {
    const at = t0 - 10 * 60_000;
    show({ ...statusAt(at), stale: true });
    expect(
      screen.getByText('No fresh data for 10 min — showing the last known'),
    ).toBeInTheDocument();
  });

  it('opens from the kept snapshot offline, saying as of when', async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    show(null, { snapshot: statusAt(t0 - 5 * 60_000, { eventName: 'Oklahoma Regional' }) });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Oklahoma Regional');
    expect(screen.getByText(/As of/).textContent).toMatch(
      /^As of \d\d:\d\d \(5 min ago\) · Offline: last saved$/,
    );
  });

  it('shows the pit notice', async () => {
    const fake = show(statusAt(t0));
    act(() =>
      fake.pushNotice({
        text: 'Team at the practice field until 14:30',
        until: new Date(t0 + 3600_000).toISOString(),
        by: 'coach',
        at: new Date(t0).toISOString(),
      }),
    );
    const heading = await screen.findByRole('heading', { name: 'From the pit' });
    expect(heading.closest('section')).toHaveTextContent('Team at the practice field until 14:30');
  });

  it('turns alerts on through the push boundary', async () => {
    const subscribe = vi.fn(async () => {});
    const sub = {
      endpoint: 'https://push.example/1',
      toJSON: () => ({ endpoint: 'https://push.example/1' }),
      unsubscribe: async () => true,
    };
    const push: NotifyDeps = {
      browser: {
        support: () => ({ push: true, ios: false, standalone: false }),
        permission: () => 'granted',
        requestPermission: async () => 'granted',
        current: async () => null,
        subscribe: async () => sub,
      },
      api: { key: async () => 'AAAA', subscribe, unsubscribe: async () => {} },
      store: { load: () => null, save: () => {} },
    };
    show(statusAt(t0), { push });
    const notify = screen.getByRole('region', { name: 'Notify me' });
    await within(notify).findByText('Alerts are off.');
    fireEvent.click(within(notify).getByRole('checkbox', { name: 'News posts' }));
    fireEvent.change(within(notify).getByRole('combobox', { name: /Queue alert/ }), {
      target: { value: '1' },
    });
    fireEvent.click(within(notify).getByRole('button', { name: 'Turn on alerts' }));
    await within(notify).findByText('Alerts are on for this device.');
    expect(subscribe).toHaveBeenCalledWith({
      subscription: { endpoint: 'https://push.example/1' },
      topics: ['queuing', 'results', 'selection', 'playoffs'],
      matchesAhead: 1,
    });
    expect(within(notify).getByRole('button', { name: 'Turn off' })).toBeInTheDocument();
    expect(notify).toHaveTextContent('We keep only your browser’s push address and your choices');
  });
});
