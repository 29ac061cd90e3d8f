import { describe, expect, it } from 'vitest';
import { burnInMaxShare, burnInShift } from './burn-in';

describe('burnInShift', () => {
  it.each([
    [1920, 1080],
    [1280, 720],
    [390, 844],
    [100, 60],
  ])('stays within 1.5 %% of a %i×%i screen', (w, h) => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const { x, y } = burnInShift(minute, w, h);
      expect(Math.abs(x)).toBeLessThanOrEqual(burnInMaxShare * w);
      expect(Math.abs(y)).toBeLessThanOrEqual(burnInMaxShare * h);
    }
  });

  it('moves every minute and comes back after eight', () => {
    const positions = Array.from({ length: 9 }, (_, m) => burnInShift(m, 1920, 1080));
    for (let m = 1; m < 8; m++) expect(positions[m]).not.toEqual(positions[m - 1]);
    expect(positions[8]).toEqual(positions[0]);
    expect(positions[0]).toEqual({ x: 6, y: 0 });
  });

  it('handles any minute number', () => {
    expect(burnInShift(-1, 1920, 1080)).toEqual(burnInShift(7, 1920, 1080));
    expect(burnInShift(29_000_000, 1920, 1080)).toEqual(burnInShift(0, 1920, 1080));
  });
});
