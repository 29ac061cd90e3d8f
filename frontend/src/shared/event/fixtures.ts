// The event status fixtures of the pit's and the follow page's tests, as the hub sends them: a qualification match and an
// event status timed from instants the test picks, each field overridable; the
// statuses of a whole event the end-to-end tests use too; and the board's own
// statuses of every phase (testdata/, written by Go's TestPitFixtures).
import type { EventStatus, Match } from '../../platform/types';

/** Go's zero time: the hub's word for "never". */
export const zeroTime = '0001-01-01T00:00:00Z';
export const min = 60_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** Our next qualification match, on the red alliance: queuing at queue, starting 17 minutes later. */
export function matchQueuingAt(queue: number, over: Partial<Match> = {}): Match {
  return {
    key: '2026okok_qm14',
    label: 'Qualification 14',
    status: '',
    step: 0,
    urgent: false,
    alliance: 'red',
    red: ['1209', '2363', '4499'],
    blue: ['118', '254', '1678'],
    partners: ['2363', '4499'],
    times: {
      queue: iso(queue),
      onDeck: iso(queue + 10 * min),
      onField: iso(queue + 15 * min),
      start: iso(queue + 17 * min),
      scheduled: iso(queue + 20 * min),
      actualStart: null,
    },
    breakAfter: '',
    redScore: null,
    blueScore: null,
    result: '',
    replayOf: '',
    when: { kind: 'estimated', at: iso(queue + 17 * min) },
    turnaround: null,
    ...over,
  };
}

/** A configured event in qualifications, its data from at, with only our next match known (queuing 10 minutes later). */
export function statusAt(at: number, over: Partial<EventStatus> = {}): EventStatus {
  return {
    configured: true,
    message: '',
    team: 1209,
    eventKey: '2026okok',
    nexusEventKey: '2026okok',
    eventName: 'Oklahoma Regional',
    timezone: 'America/Chicago',
    eventPlace: 'Tulsa, OK, USA',
    eventStart: '',
    eventEnd: '',
    phase: 'qualifications',
    season: [],
    nextMatch: matchQueuingAt(at + 10 * min),
    upcoming: [],
    recent: [],
    onField: null,
    nowQueuing: '',
    rank: null,
    pit: 'B12',
    announcements: [],
    partsRequests: [],
    webcasts: [],
    nexus: { state: 'ok', message: '', asOf: iso(at) },
    tba: { state: 'ok', message: '', asOf: iso(at) },
    asOf: iso(at),
    stale: false,
    feedDown: false,
    schedule: [],
    forecast: null,
    rankCriteria: [],
    rankTrend: [],
    fieldLateMinutes: null,
    playoffs: null,
    teamCards: [],
    prediction: null,
    ...over,
  };
}

// The statuses of a whole event, as the hub sends them, written at
// 2026-03-14T15:00:00Z (e2e/fixtures/pit-status/*.json; the end-to-end tests
// use them too).
const phases = import.meta.glob<EventStatus>('../../../e2e/fixtures/pit-status/*.json', {
  eager: true,
  import: 'default',
});

/** A copy of the fixture status name: qualifications, selection, playoffs, finals, … */
export function phaseStatus(name: string): EventStatus {
  const status = phases[`../../../e2e/fixtures/pit-status/${name}.json`];
  if (!status) throw new Error(`no fixture ${name}`);
  return structuredClone(status);
}

// The boards of every phase and both brackets, as Go's board writes them at
// 2026-03-14T15:00:00Z (internal/frcevent/board, TestPitFixtures -update).
const boards = import.meta.glob<{ status: EventStatus }>('./testdata/*.json', {
  eager: true,
  import: 'default',
});

/** The fixture names of the board's statuses: qualifications, playoffs-upper, four-finals, … */
export const contractNames = Object.keys(boards)
  .map((path) => path.slice('./testdata/'.length, -'.json'.length))
  .sort();

/** A copy of the board's status name (testdata/name.json). */
export function contractStatus(name: string): EventStatus {
  const board = boards[`./testdata/${name}.json`];
  if (!board) throw new Error(`no board fixture ${name}`);
  return structuredClone(board.status);
}
