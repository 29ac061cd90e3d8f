import { describe, expect, it } from 'vitest';
import { isTimeZone, pad2 } from './time';

describe('pad2', () => {
  it.for([
    { n: 0, want: '00' },
    { n: 7, want: '07' },
    { n: 59, want: '59' },
    { n: 123, want: '123' },
  ])('writes $n as $want', ({ n, want }) => {
    expect(pad2(n)).toBe(want);
  });
});

describe('isTimeZone', () => {
  it.for([
    { zone: 'America/Chicago', want: true },
    { zone: 'UTC', want: true },
    { zone: 'Mars/Olympus_Mons', want: false },
    { zone: '', want: false },
  ])('says $want for "$zone"', ({ zone, want }) => {
    expect(isTimeZone(zone)).toBe(want);
  });
});
