import { describe, expect, it } from 'vitest';
import { bubbleRanges, layoutBubbles, seededRandom } from './bubbles';
import { SeasonPageBubbles } from '../../gen/spec.gen';

describe('seededRandom', () => {
  it('repeats for the same seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('differs between seeds and survives seed 0', () => {
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
    const zero = seededRandom(0);
    expect(zero()).not.toBe(zero());
  });
});

describe('layoutBubbles', () => {
  const bubbles = layoutBubbles(SeasonPageBubbles);

  it('makes as many bubbles as the spec says', () => {
    expect(SeasonPageBubbles).toBe(50);
    expect(bubbles).toHaveLength(50);
  });

  it('keeps every bubble inside its ranges', () => {
    for (const b of bubbles) {
      expect(b.leftPct).toBeGreaterThanOrEqual(0);
      expect(b.leftPct).toBeLessThanOrEqual(100);
      expect(b.sizePx).toBeGreaterThanOrEqual(bubbleRanges.sizePx[0]);
      expect(b.sizePx).toBeLessThanOrEqual(bubbleRanges.sizePx[1]);
      expect(b.durationS).toBeGreaterThanOrEqual(bubbleRanges.durationS[0]);
      expect(b.durationS).toBeLessThanOrEqual(bubbleRanges.durationS[1]);
      expect(b.delayS).toBeLessThanOrEqual(0);
      expect(-b.delayS).toBeLessThanOrEqual(b.durationS);
      expect(Math.abs(b.swayPx)).toBeLessThanOrEqual(28);
      expect(b.opacity).toBeGreaterThanOrEqual(bubbleRanges.opacity[0]);
      expect(b.opacity).toBeLessThanOrEqual(bubbleRanges.opacity[1]);
    }
  });

  it('spreads the bubbles over the whole width', () => {
    const lefts = bubbles.map((b) => b.leftPct).sort((a, b) => a - b);
    // One bubble in every 2% column slot: no gap wider than two slots.
    for (let i = 1; i < lefts.length; i++) expect(lefts[i] - lefts[i - 1]).toBeLessThan(4);
    expect(lefts[0]).toBeLessThan(2);
    expect(lefts[lefts.length - 1]).toBeGreaterThan(98);
  });

  it('is the same on every call and changes with the seed', () => {
    expect(layoutBubbles(SeasonPageBubbles)).toEqual(bubbles);
    expect(layoutBubbles(SeasonPageBubbles, 7)).not.toEqual(bubbles);
  });

  it('handles zero and one bubble', () => {
    expect(layoutBubbles(0)).toEqual([]);
    expect(layoutBubbles(1)).toHaveLength(1);
  });
});
