import { describe, expect, it } from 'vitest';
import { fromLocalInput, isZeroTime, toLocalInput, zeroTime } from './datetime';

describe('datetime-local values', () => {
  it('go both ways in local time', () => {
    const local = new Date(2026, 2, 14, 9, 5, 7);
    expect(toLocalInput(local.toISOString())).toBe('2026-03-14T09:05');
    expect(toLocalInput(local.toISOString(), true)).toBe('2026-03-14T09:05:07');
    expect(fromLocalInput('2026-03-14T09:05:07')).toBe(local.toISOString());
  });

  it('say no time for the zero time and for empty', () => {
    expect(toLocalInput(zeroTime)).toBe('');
    expect(toLocalInput('0001-01-01T00:00:00.000Z')).toBe('');
    expect(fromLocalInput('')).toBe(zeroTime);
    expect(fromLocalInput('nonsense')).toBe(zeroTime);
    expect(isZeroTime('')).toBe(true);
    expect(isZeroTime('2026-01-01T00:00:00Z')).toBe(false);
  });
});
