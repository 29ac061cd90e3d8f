import { describe, expect, it } from 'vitest';
import { clockOffset } from './clock-offset';

describe('clockOffset', () => {
  it('is zero with no samples', () => {
    expect(clockOffset([])).toBe(0);
  });

  it('takes the midpoint of the round trip', () => {
    // Local clock 5 s behind; 100 ms round trip; the server answered at its midpoint.
    expect(clockOffset([{ sentMs: 1000, serverMs: 6050, receivedMs: 1100 }])).toBe(5000);
  });

  it('trusts the shortest round trip', () => {
    const samples = [
      { sentMs: 0, serverMs: 9000, receivedMs: 2000 }, // slow: suggests 8000
      { sentMs: 5000, serverMs: 10_010, receivedMs: 5020 }, // fast: 5000
      { sentMs: 9000, serverMs: 15_000, receivedMs: 10_000 }, // slow: 5500
    ];
    expect(clockOffset(samples)).toBe(5000);
  });

  it('handles a local clock ahead of the server', () => {
    expect(clockOffset([{ sentMs: 10_000, serverMs: 7010, receivedMs: 10_020 }])).toBe(-3000);
  });

  it('skips samples where the local clock went backwards', () => {
    expect(clockOffset([{ sentMs: 500, serverMs: 100, receivedMs: 400 }])).toBe(0);
  });
});
