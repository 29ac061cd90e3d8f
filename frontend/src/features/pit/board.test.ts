import { describe, expect, it } from 'vitest';
import type {
  Alliance,
  BracketMatch,
  EventStatus,
  Match,
  Phase,
  Playoffs,
  Source,
  TeamCard,
} from '../../platform/types';
import {
  allianceWords,
  boardPhase,
  type BoardPhase,
  bracketLayout,
  calendarUrl,
  followUrl,
  cardsOf,
  criterionValue,
  fieldPaceText,
  matchTime,
  oprSourceText,
  oprText,
  playoffsOver,
  rankTrendPoints,
  rankTrendText,
  roleText,
  winChanceBasisText,
  winChanceText,
  ordinal,
  forecastText,
  forecastShort,
  ageText,
  asOfText,
  breakText,
  clockText,
  countdownFor,
  formatDuration,
  noNextMatchText,
  noticesOf,
  opponentsOf,
  parseTime,
  partnersOf,
  qrTarget,
  rankText,
  recordText,
  resultLetter,
  scoreText,
  spanWords,
  statusTone,
  warningsFor,
  webcastLinks,
} from './board';
import {
  contractStatus,
  iso,
  matchQueuingAt,
  min,
  statusAt,
  zeroTime,
} from '../../shared/event/fixtures';
import { bracketShort } from '../../shared/event/words';

const t0 = Date.parse('2026-03-14T14:00:00Z');
const match = (over?: Partial<Match>) => matchQueuingAt(t0 + 10 * min, over);
const status = (over?: Partial<EventStatus>) => statusAt(t0, over);

describe('parseTime', () => {
  it('reads RFC 3339 and treats null, empty and Go’s zero time as none', () => {
    expect(parseTime('2026-03-14T14:00:00Z')).toBe(t0);
    expect(parseTime('2026-03-14T09:00:00-05:00')).toBe(t0);
    expect(parseTime(null)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime(zeroTime)).toBeNull();
    expect(parseTime('soon')).toBeNull();
  });
});

describe('formatDuration', () => {
  it('shows minutes:seconds, rounding seconds up', () => {
    expect(formatDuration(272_000)).toBe('4:32');
    expect(formatDuration(271_100)).toBe('4:32');
    expect(formatDuration(5_000)).toBe('0:05');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(-3000)).toBe('0:00');
  });
  it('shows hours only past 60 minutes', () => {
    expect(formatDuration(60 * min)).toBe('60:00');
    expect(formatDuration(60 * min + 1000)).toBe('1:00:01');
    expect(formatDuration(65 * min + 9000)).toBe('1:05:09');
    expect(formatDuration(10 * 60 * min)).toBe('10:00:00');
  });
});

describe('countdownFor', () => {
  it('counts to the queue time first', () => {
    const c = countdownFor(match(), t0 + 10 * min - 272_000);
    expect(c).toMatchObject({ kind: 'queue', leftMs: 272_000, text: 'Queue in 4:32' });
  });
  it('counts to on deck once queue time passed, then to the start', () => {
    expect(countdownFor(match(), t0 + 10 * min)?.text).toBe('On deck in 10:00');
    expect(countdownFor(match(), t0 + 20 * min)?.text).toBe('Starts in 7:00');
    expect(countdownFor(match(), t0 + 26 * min + 59_500)?.text).toBe('Starts in 0:01');
  });
  it('says starting now once every known time passed', () => {
    expect(countdownFor(match(), t0 + 27 * min)).toMatchObject({
      kind: 'start',
      leftMs: 0,
      text: 'Starting now',
    });
  });
  it('skips the steps Nexus says the match reached', () => {
    expect(countdownFor(match({ status: 'Now queuing', step: 1 }), t0)?.text).toBe(
      'On deck in 20:00',
    );
    expect(countdownFor(match({ status: 'On deck', step: 2 }), t0)?.text).toBe('Starts in 27:00');
    expect(countdownFor(match({ status: 'Queuing soon' }), t0)?.text).toBe('Queue in 10:00');
    expect(countdownFor(match({ status: 'On field', step: 3 }), t0)).toBeNull();
  });
  it('falls back to on-field then scheduled time for the start, and skips unknown steps', () => {
    const times = { ...match().times, queue: null, onDeck: zeroTime, start: null };
    expect(countdownFor(match({ times }), t0)?.text).toBe('Starts in 25:00');
    const scheduledOnly = {
      queue: null,
      onDeck: null,
      onField: null,
      start: null,
      scheduled: iso(t0 + 90 * min),
      actualStart: null,
    };
    expect(countdownFor(match({ times: scheduledOnly }), t0)?.text).toBe('Starts in 1:30:00');
  });
  it('has none without any time', () => {
    const none = {
      queue: null,
      onDeck: null,
      onField: null,
      start: null,
      scheduled: null,
      actualStart: null,
    };
    expect(countdownFor(match({ times: none }), t0)).toBeNull();
  });
});

describe('age and freshness', () => {
  it('words spans and ages', () => {
    expect(spanWords(14 * min + 59_000)).toBe('14 min');
    expect(spanWords(60 * min)).toBe('1 h');
    expect(spanWords(125 * min)).toBe('2 h 5 min');
    expect(ageText(t0, t0 + 59_000)).toBe('just now');
    expect(ageText(t0, t0 + 2 * min + 5000)).toBe('2 min ago');
    expect(ageText(t0, t0 + 61 * min)).toBe('1 h 1 min ago');
  });
  it('writes the clock in the event’s zone, or the local one when unknown', () => {
    expect(clockText(t0 + 32 * min, 'America/Chicago')).toBe('09:32');
    expect(clockText(t0 + 32 * min, 'UTC')).toBe('14:32');
    const local = new Date(t0 + 32 * min);
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    expect(clockText(t0 + 32 * min, '')).toBe(hhmm);
    expect(clockText(t0 + 32 * min, 'Not/AZone')).toBe(hhmm);
  });
  it('writes the as-of line', () => {
    expect(asOfText(iso(t0 + 32 * min), t0 + 34 * min, 'UTC')).toBe('Data as of 14:32 (2 min ago)');
    expect(asOfText(zeroTime, t0, 'UTC')).toBe('No data yet');
  });
});

describe('warningsFor', () => {
  it('is quiet while the data is fresh and the sources ok or off', () => {
    expect(warningsFor(status(), t0 + 5 * min)).toEqual([]);
    const off: Source = { state: 'off', message: 'No Nexus key', asOf: zeroTime };
    expect(warningsFor(status({ nexus: off }), t0)).toEqual([]);
  });
  it('says how long there was no fresh data once the server calls it stale', () => {
    expect(warningsFor(status(), t0 + 14 * min)).toEqual([]);
    expect(warningsFor(status({ stale: true }), t0 + 14 * min + 30_000)).toEqual([
      'No fresh data for 14 min — showing the last known',
    ]);
  });
  it('says the event’s feed is down', () => {
    expect(warningsFor(status({ feedDown: true }), t0)).toEqual([
      'The event’s data feed is down — showing the last known',
    ]);
  });
  it('gives a failing source’s own words, with or without data', () => {
    const rejected: Source = {
      state: 'key rejected',
      message: 'Nexus key rejected',
      asOf: zeroTime,
    };
    expect(warningsFor(status({ nexus: rejected, asOf: zeroTime }), t0)).toEqual([
      'Nexus key rejected',
    ]);
    const lost: Source = { state: 'unreachable', message: 'Nexus unreachable', asOf: iso(t0) };
    expect(warningsFor(status({ nexus: lost }), t0 + min)).toEqual([
      'Nexus unreachable — showing its last data',
    ]);
    const unnamed: Source = { state: 'event not found', message: '', asOf: zeroTime };
    expect(warningsFor(status({ tba: unnamed }), t0)).toEqual([
      'The Blue Alliance: event not found',
    ]);
  });
  it('puts every warning in order, and says a down feed once', () => {
    const down: Source = { state: 'down', message: 'The event’s feed is down', asOf: iso(t0) };
    expect(warningsFor(status({ feedDown: true, tba: down, stale: true }), t0 + 11 * min)).toEqual([
      'The event’s data feed is down — showing the last known',
      'No fresh data for 11 min — showing the last known',
    ]);
    const lost: Source = { state: 'unreachable', message: 'Nexus unreachable', asOf: iso(t0) };
    expect(warningsFor(status({ nexus: lost, tba: down }), t0)).toEqual([
      'Nexus unreachable — showing its last data',
      'The event’s feed is down — showing its last data',
    ]);
  });
  it('has none while no event is configured', () => {
    expect(warningsFor(status({ configured: false, feedDown: true }), t0 + 99 * min)).toEqual([]);
  });
});

describe('numbers and teams', () => {
  it('writes record and rank', () => {
    expect(recordText({ wins: 5, losses: 2, ties: 0 })).toBe('5-2-0');
    expect(
      rankText({
        rank: 7,
        of: 40,
        record: { wins: 5, losses: 2, ties: 0 },
      }),
    ).toBe('Rank 7 of 40');
    expect(
      rankText({
        rank: 7,
        of: 0,
        record: { wins: 0, losses: 0, ties: 0 },
      }),
    ).toBe('Rank 7');
  });
  it('lists partners as team numbers, from Nexus or from our alliance less us', () => {
    expect(partnersOf(match(), 1209)).toEqual(['2363', '4499']);
    expect(partnersOf(match({ partners: [] }), 1209)).toEqual(['2363', '4499']);
    expect(
      partnersOf(match({ partners: null, alliance: 'blue', blue: ['1209', '', '7'] }), 1209),
    ).toEqual(['TBD', '7']);
    expect(partnersOf(match({ partners: null, alliance: '' }), 1209)).toEqual([]);
  });
  it('lists opponents', () => {
    expect(opponentsOf(match())).toEqual(['118', '254', '1678']);
    expect(opponentsOf(match({ alliance: 'blue' }))).toEqual(['1209', '2363', '4499']);
    expect(opponentsOf(match({ blue: ['', '', ''] }))).toEqual([]);
    expect(opponentsOf(match({ alliance: '' }))).toEqual([]);
  });
  it('writes results and scores, ours first', () => {
    expect(resultLetter('win')).toBe('W');
    expect(resultLetter('loss')).toBe('L');
    expect(resultLetter('tie')).toBe('T');
    expect(resultLetter('')).toBeNull();
    expect(scoreText(match({ redScore: 85, blueScore: 72 }))).toBe('85–72');
    expect(scoreText(match({ alliance: 'blue', redScore: 85, blueScore: 72 }))).toBe('72–85');
    expect(scoreText(match())).toBeNull();
  });
  it('names the break after a match', () => {
    expect(breakText(match({ breakAfter: 'Lunch' }))).toBe('Lunch after this match');
    expect(breakText(match())).toBeNull();
  });
  it('shows urgent what the server calls urgent, and the field live', () => {
    expect(statusTone(match({ status: 'Now queuing', step: 1, urgent: true }))).toBe('urgent');
    expect(statusTone(match({ status: 'On deck', step: 2, urgent: true }))).toBe('urgent');
    expect(statusTone(match({ status: 'On field', step: 3 }))).toBe('live');
    expect(statusTone(match({ status: 'Queuing soon' }))).toBe('calm');
    expect(statusTone(match())).toBe('calm');
  });
});

describe('notices, webcasts, QR and no next match', () => {
  it('merges announcements and parts requests newest first', () => {
    const items = noticesOf(
      [
        { id: '1', text: 'Old', posted: iso(t0) },
        { id: '2', text: 'New', posted: iso(t0 + 5 * min) },
      ],
      [{ id: '9', team: '118', parts: 'A 4" wheel', posted: iso(t0 + 2 * min) }],
    );
    expect(items.map((i) => i.text)).toEqual(['New', 'A 4" wheel', 'Old']);
    expect(items[1]).toMatchObject({ kind: 'parts', team: '118' });
    expect(noticesOf(null, null)).toEqual([]);
  });
  it('links https webcasts only, each once', () => {
    expect(
      webcastLinks([
        { type: 'twitch', url: 'https://www.twitch.tv/firstinspires' },
        { type: 'twitch', url: 'https://www.twitch.tv/firstinspires' },
        { type: 'youtube', url: 'http://youtube.com/x' },
        { type: 'x', url: 'javascript:alert(1)' },
        { type: '', url: 'https://example.org/live' },
      ]),
    ).toEqual([
      { href: 'https://www.twitch.tv/firstinspires', label: 'Twitch (twitch.tv)' },
      { href: 'https://example.org/live', label: 'example.org' },
    ]);
    expect(webcastLinks(null)).toEqual([]);
  });
  it('points the QR code at this site, or at the team site from the desktop window', () => {
    expect(qrTarget('https://robohornets.example', undefined)).toBe('https://robohornets.example/');
    expect(qrTarget('http://127.0.0.1:8080', 'https://team.example/')).toBe(
      'http://127.0.0.1:8080/',
    );
    expect(qrTarget('wails://wails', 'https://team.example/')).toBe('https://team.example/');
    expect(qrTarget('wails://wails', undefined)).toBeNull();
  });
  it('says why there is no next match', () => {
    expect(noNextMatchText(status({ nextMatch: null, recent: null }))).toBe(
      'Our match schedule is not out yet',
    );
    expect(noNextMatchText(status({ nextMatch: null, recent: [match()] }))).toBe(
      'No more matches scheduled for us right now',
    );
  });
});

describe('the phase of the board', () => {
  it('follows the server’s phase, qualifications before any', () => {
    const boards: [Phase, BoardPhase][] = [
      ['qualifications', 'qualifications'],
      ['alliance selection', 'selection'],
      ['playoffs', 'playoffs'],
      ['finished', 'finished'],
      ['', 'qualifications'],
    ];
    for (const [phase, board] of boards) expect(boardPhase(phase)).toBe(board);
  });

  it('throws on a phase the page does not know rather than guess one', () => {
    expect(() => boardPhase('something new' as Phase)).toThrow('unexpected value "something new"');
  });
});

describe('times and the field’s pace', () => {
  it('says how late or early the field runs', () => {
    expect(fieldPaceText(12)).toBe('Field running 12 min late');
    expect(fieldPaceText(-5)).toBe('Field running 5 min early');
    expect(fieldPaceText(1)).toBe('Field running 1 min late');
    expect(fieldPaceText(0)).toBe('Field on time');
    expect(fieldPaceText(null)).toBeNull();
    expect(fieldPaceText(Number.NaN)).toBeNull();
  });

  it('shows the time the server names, with its kind', () => {
    const tz = 'UTC';
    expect(matchTime(match({ when: { kind: 'estimated', at: iso(t0 + 27 * min) } }), tz)).toEqual({
      ms: t0 + 27 * min,
      clock: '14:27',
      kind: 'estimated',
    });
    expect(matchTime(match({ when: { kind: 'actual', at: iso(t0 + 33 * min) } }), tz)).toEqual({
      ms: t0 + 33 * min,
      clock: '14:33',
      kind: 'actual',
    });
    expect(matchTime(match({ when: null }), tz)).toBeNull();
    expect(matchTime(match({ when: { kind: 'scheduled', at: zeroTime } }), tz)).toBeNull();
  });
});

describe('ranking criteria and trend', () => {
  it('writes each value with TBA’s precision', () => {
    expect(criterionValue({ name: 'Ranking Score', value: 2.1666, precision: 2 })).toBe('2.17');
    expect(criterionValue({ name: 'Avg Auto', value: 21.5, precision: 1 })).toBe('21.5');
    expect(criterionValue({ name: 'Wins', value: 5, precision: 0 })).toBe('5');
    expect(criterionValue({ name: 'Odd', value: 3, precision: -2 })).toBe('3');
    expect(criterionValue({ name: 'Bad', value: Number.NaN, precision: 2 })).toBe('—');
  });

  it('says the trend in words', () => {
    expect(rankTrendText([12, 9, 7])).toBe('Rank after each match: 12, 9, 7');
    expect(rankTrendText([])).toBe('');
    expect(rankTrendText(null)).toBe('');
  });

  it('draws rank 1 at the top, one point per match, left to right', () => {
    expect(rankTrendPoints([10, 5, 1], 100, 40)).toEqual([
      { x: 0, y: 40 },
      { x: 50, y: 17.8 },
      { x: 100, y: 0 },
    ]);
    expect(rankTrendPoints([3, 3], 100, 40, 4)).toEqual([
      { x: 4, y: 20 },
      { x: 96, y: 20 },
    ]);
    expect(rankTrendPoints([3], 100, 40)).toBeNull();
    expect(rankTrendPoints(null, 100, 40)).toBeNull();
  });
});

describe('the rank forecast', () => {
  it('writes ranks as ordinals, the range and the chance of a top-8 finish, never 0 % or 100 %', () => {
    for (const [n, word] of [
      [1, '1st'],
      [2, '2nd'],
      [3, '3rd'],
      [4, '4th'],
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [23, '23rd'],
      [101, '101st'],
      [111, '111th'],
    ] as const) {
      expect(ordinal(n)).toBe(word);
    }
    const f = { top8: 0.642, expectedRank: 8.4, low: 6, high: 11 };
    expect(forecastText(f)).toBe('Top 8: 64% · likely 6th–11th');
    expect(forecastText({ ...f, low: 1, high: 1, top8: 1 })).toBe('Top 8: > 99% · likely 1st');
    expect(forecastText({ ...f, top8: 0 })).toBe('Top 8: < 1% · likely 6th–11th');
    expect(forecastShort(f)).toBe('Top 8 64%');
  });
});

describe('team cards and the prediction', () => {
  const p = { winChance: 0.623, matches: 42 };
  it('formats the win chance (never 0 % or 100 %), what it rests on, OPR and where OPR comes from', () => {
    expect(winChanceText(p)).toBe('62%');
    for (const [chance, shown] of [
      [0.994, '99%'],
      [0.995, '> 99%'],
      [0.99999, '> 99%'],
      [1.2, '> 99%'],
      [0.006, '1%'],
      [0.004, '< 1%'],
      [0, '< 1%'],
      [-1, '< 1%'],
    ] as const) {
      expect(winChanceText({ ...p, winChance: chance }), String(chance)).toBe(shown);
    }
    expect(winChanceBasisText(p)).toBe('From the scores of 42 qualification matches');
    expect(winChanceBasisText({ ...p, matches: 1 })).toBe(
      'From the scores of 1 qualification match',
    );
    expect(oprText(23.44)).toBe('23.4');
    expect(oprText(null)).toBe('—');
    expect(oprSourceText(p)).toBe('OPR computed by this program from 42 played matches');
    expect(oprSourceText({ ...p, matches: 1 })).toBe(
      'OPR computed by this program from 1 played match',
    );
    expect(oprSourceText(null)).toBe('OPR computed by this program from the played matches');
  });

  it('splits the cards by alliance in the server’s order', () => {
    const cards: TeamCard[] = [
      { team: '1209', name: 'RoboHornets', alliance: 'red', opr: 30, forecast: null },
      { team: '118', name: 'Robonauts', alliance: 'blue', opr: 29, forecast: null },
      { team: '2363', name: '', alliance: 'red', opr: null, forecast: null },
    ];
    expect(cardsOf(cards, 'red').map((c) => c.team)).toEqual(['1209', '2363']);
    expect(cardsOf(cards, 'blue').map((c) => c.team)).toEqual(['118']);
    expect(cardsOf(null, 'red')).toEqual([]);
  });
});

describe('alliances and the playoffs', () => {
  it('names roles, alliances and their states', () => {
    expect(roleText('first pick')).toBe('First pick');
    expect(roleText('')).toBe('');
    const a: Alliance = {
      number: 3,
      name: 'Alliance 3',
      teams: ['2363', '1209', '4414'],
      backup: '971',
      out: '4414',
      state: 'playing',
      round: 'Round 2',
      ours: true,
    };
    expect(allianceWords(a)).toBe('Captain 2363, picks 1209, 4414, backup 971');
    expect(allianceWords({ ...a, teams: ['2363'], backup: '' })).toBe('Captain 2363');
    expect(allianceWords({ ...a, teams: ['2363', ''], backup: '' })).toBe('Captain 2363, pick TBD');
  });

  it('is over for us once the event finished or our alliance is out or won', () => {
    const playoffs: Playoffs = {
      type: 10,
      selectionDone: true,
      alliances: [],
      ours: null,
      bracket: [],
      record: { wins: 0, losses: 0, ties: 0 },
      round: '',
      state: 'playing',
      outcome: '',
      next: null,
    };
    expect(playoffsOver(status({ phase: 'playoffs', playoffs }))).toBe(false);
    expect(
      playoffsOver(status({ phase: 'playoffs', playoffs: { ...playoffs, state: 'eliminated' } })),
    ).toBe(true);
    expect(
      playoffsOver(status({ phase: 'playoffs', playoffs: { ...playoffs, state: 'won' } })),
    ).toBe(true);
    expect(playoffsOver(status({ phase: 'finished', playoffs: null }))).toBe(true);
    expect(playoffsOver(status({ phase: 'playoffs', playoffs: null }))).toBe(false);
  });

  it('places a double-elimination bracket: rounds, upper over lower, finals apart', () => {
    // The brackets of 8 and 4 alliances the board sends, placed by their winnerOf/loserOf sources.
    const labels = (cols: { matches: BracketMatch[] }[]) =>
      cols.map((c) => c.matches.map((m) => bracketShort(m.number)));
    const eight = bracketLayout(contractStatus('playoffs-upper').playoffs?.bracket ?? null);
    expect(eight.rounds).toEqual(['Round 1', 'Round 2', 'Round 3', 'Round 4', 'Round 5']);
    expect(labels(eight.upper)).toEqual([['M1', 'M2', 'M3', 'M4'], ['M7', 'M8'], [], ['M11'], []]);
    expect(labels(eight.lower)).toEqual([[], ['M5', 'M6'], ['M9', 'M10'], ['M12'], ['M13']]);
    expect(eight.finals.map((m) => m.number)).toEqual([0]);
    const four = bracketLayout(contractStatus('four-playoffs').playoffs?.bracket ?? null);
    expect(four.rounds).toEqual(['Round 1', 'Round 2', 'Round 3']);
    expect(labels(four.upper)).toEqual([['M1', 'M2'], ['M3'], []]);
    expect(labels(four.lower)).toEqual([[], ['M4'], ['M5']]);
    expect(bracketLayout(null)).toEqual({ rounds: [], upper: [], lower: [], finals: [] });
  });
});

describe('calendar', () => {
  it('points at /pit/{team}.ics on the site the QR code points to', () => {
    expect(calendarUrl('https://robohornets.example/', 1209)).toBe(
      'https://robohornets.example/pit/1209.ics',
    );
    expect(calendarUrl('https://robohornets.example/team/', 1209)).toBe(
      'https://robohornets.example/pit/1209.ics',
    );
    expect(calendarUrl(null, 1209)).toBe('/pit/1209.ics');
    expect(calendarUrl(qrTarget('http://127.0.0.1:8080', undefined), 1209)).toBe(
      'http://127.0.0.1:8080/pit/1209.ics',
    );
  });
});

describe('follow', () => {
  it('points at /follow on the site the QR code points to', () => {
    expect(followUrl('https://robohornets.example/')).toBe('https://robohornets.example/follow');
    expect(followUrl('https://robohornets.example/team/')).toBe(
      'https://robohornets.example/follow',
    );
    expect(followUrl(null)).toBe('/follow');
    expect(followUrl(qrTarget('http://127.0.0.1:8080', undefined))).toBe(
      'http://127.0.0.1:8080/follow',
    );
  });
});
