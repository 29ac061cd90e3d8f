import { Team } from '../../gen/spec.gen';

// Layout of the rising bubbles on the Reefscape page. Positions come from a
// small seeded generator, so every visit (and every test) gets the same
// scatter and the server-rendered shape never shifts between renders.

/** One bubble: where it rises and how. */
export interface Bubble {
  /** Horizontal position, percent of the layer's width (0–100). */
  leftPct: number;
  /** Diameter in pixels. */
  sizePx: number;
  /** Seconds one rise from the bottom to the top takes. */
  durationS: number;
  /** Animation delay in seconds; negative, so the bubbles start spread over the page. */
  delayS: number;
  /** Sideways sway in pixels at the middle of the rise (either direction). */
  swayPx: number;
  /** Opacity, 0.35–0.85. */
  opacity: number;
}

/** The ranges bubbles are drawn from. */
export const bubbleRanges = {
  sizePx: [6, 38],
  durationS: [9, 22],
  swayPx: [-28, 28],
  opacity: [0.35, 0.85],
} as const;

/**
 * Returns a generator of numbers in [0, 1) that depends only on seed
 * (a 32-bit xorshift; plenty for scattering decoration).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

const round = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

const between = (r: number, [lo, hi]: readonly [number, number]) => lo + r * (hi - lo);

/**
 * Returns count bubbles scattered across the width. Columns are evenly spaced
 * and jittered inside their slot, so bubbles never bunch up on one side.
 */
export function layoutBubbles(count: number, seed = Team): Bubble[] {
  const random = seededRandom(seed);
  const bubbles: Bubble[] = [];
  const slot = count > 0 ? 100 / count : 0;
  for (let i = 0; i < count; i++) {
    const durationS = round(between(random(), bubbleRanges.durationS), 2);
    bubbles.push({
      leftPct: round(Math.min(100, slot * i + random() * slot), 2),
      sizePx: Math.round(between(random(), bubbleRanges.sizePx)),
      durationS,
      delayS: -round(random() * durationS, 2),
      swayPx: Math.round(between(random(), bubbleRanges.swayPx)),
      opacity: round(between(random(), bubbleRanges.opacity), 2),
    });
  }
  // Shuffle the columns' order so neighbours in the DOM are not neighbours on
  // screen (keeps sizes from looking like a gradient left to right).
  for (let i = bubbles.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [bubbles[i], bubbles[j]] = [bubbles[j], bubbles[i]];
  }
  return bubbles;
}
