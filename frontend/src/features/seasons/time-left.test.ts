import { describe, expect, it } from 'vitest';
import { timeLeft } from './time-left';

describe('timeLeft', () => {
  const kickoff = Date.parse('2025-01-04T12:00:00-05:00');

  it('is kickoff at 17:00 UTC', () => {
    expect(kickoff).toBe(Date.UTC(2025, 0, 4, 17, 0, 0));
  });

  it('splits the time left into days, hours, minutes and seconds', () => {
    expect(timeLeft(Date.parse('2025-01-01T10:58:30-05:00'), kickoff)).toEqual({
      reached: false,
      totalMs: ((3 * 24 + 1) * 3600 + 60 + 30) * 1000,
      days: 3,
      hours: 1,
      minutes: 1,
      seconds: 30,
    });
  });

  it('rounds a part second down', () => {
    expect(timeLeft(kickoff - 1_500, kickoff)).toMatchObject({ seconds: 1, reached: false });
  });

  it('is reached at the moment and after it', () => {
    const zero = { reached: true, totalMs: 0, days: 0, hours: 0, minutes: 0, seconds: 0 };
    expect(timeLeft(kickoff, kickoff)).toEqual(zero);
    expect(timeLeft(kickoff + 86_400_000, kickoff)).toEqual(zero);
  });
});
