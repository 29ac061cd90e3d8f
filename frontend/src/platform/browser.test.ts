import { describe, expect, it } from 'vitest';
import { isEventStatus } from './browser';

/** What GET /api/event answers with no event set, trimmed to the fields the guard reads. */
const status = {
  configured: false,
  message: 'No event found for team 1209 today',
  team: 1209,
  eventKey: '',
  phase: 'none',
  asOf: '2026-03-14T15:09:00Z',
  stale: false,
  nexus: { asOf: '0001-01-01T00:00:00Z' },
  tba: { asOf: '0001-01-01T00:00:00Z' },
};

describe('isEventStatus', () => {
  it('takes an event status', () => {
    expect(isEventStatus(status)).toBe(true);
  });

  it.each([
    ['null', null],
    ['an array', [status]],
    ['a string', JSON.stringify(status)],
    ['a news snapshot', { articles: [], asOf: '2026-03-14T15:09:00Z', live: true }],
    ['a team as text', { ...status, team: '1209' }],
    ['no configured', { ...status, configured: undefined }],
    ['no asOf', { ...status, asOf: undefined }],
    ['no sources', { ...status, nexus: null }],
  ])('refuses %s', (_name, data) => {
    expect(isEventStatus(data)).toBe(false);
  });
});
