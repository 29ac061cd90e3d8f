import { describe, expect, it } from 'vitest';
import { TickStats } from './tick-stats';

describe('TickStats', () => {
  it('is all zeros before any tick', () => {
    expect(new TickStats().summary()).toEqual({ count: 0, p50: 0, p99: 0, sentP99: 0 });
  });

  it('measures from the whole second of each tick', () => {
    const s = new TickStats();
    s.add(5_000_003, 5_000_010); // sent 3 ms, arrived 10 ms after 5000 s
    s.add(5_001_000, 5_001_004); // sent 0 ms, arrived 4 ms
    s.add(5_002_001, 5_002_030); // sent 1 ms, arrived 30 ms
    expect(s.summary()).toEqual({ count: 3, p50: 10, p99: 30, sentP99: 3 });
  });

  it('keeps only the last size ticks', () => {
    const s = new TickStats(100);
    for (let i = 0; i < 100; i++) s.add(i * 1000 + 200, i * 1000 + 500); // old and slow
    for (let i = 100; i < 200; i++) s.add(i * 1000, i * 1000 + (i % 10)); // 0..9 ms
    expect(s.summary()).toEqual({ count: 100, p50: 4, p99: 9, sentP99: 0 });
  });
});
