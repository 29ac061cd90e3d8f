import { describe, expect, it } from 'vitest';
import { advanceCircles, noCircles, type CirclesState } from './circles';
import {
  ExpandingCircleLifetime,
  ExpandingCirclesEvery,
  ExpandingCirclesMax,
} from '../../gen/spec.gen';

const limits = {
  max: ExpandingCirclesMax,
  everyMs: ExpandingCirclesEvery,
  lifetimeMs: ExpandingCircleLifetime,
};

/** Runs the animation's timer from 0 to endMs and returns every state. */
function run(endMs: number, stepMs = ExpandingCirclesEvery): CirclesState[] {
  const states: CirclesState[] = [];
  let s = noCircles;
  for (let t = 0; t <= endMs; t += stepMs) {
    s = advanceCircles(s, t, limits);
    states.push(s);
  }
  return states;
}

function lastOf(states: CirclesState[]): CirclesState {
  const s = states.at(-1);
  if (!s) throw new Error('no states');
  return s;
}

describe('advanceCircles', () => {
  it('uses the spec limits', () => {
    expect(limits).toEqual({ max: 4, everyMs: 500, lifetimeMs: 8000 });
  });

  it('spawns the first circle at once', () => {
    expect(advanceCircles(noCircles, 1000, limits)).toEqual({
      circles: [{ id: 0, bornMs: 1000 }],
      nextId: 1,
      lastSpawnMs: 1000,
    });
  });

  it('waits `every` ms between circles', () => {
    const one = advanceCircles(noCircles, 0, limits);
    expect(advanceCircles(one, 499, limits)).toBe(one);
    expect(advanceCircles(one, 500, limits).circles).toHaveLength(2);
  });

  it('adds one circle every 500 ms up to four', () => {
    const counts = run(3000).map((s) => s.circles.length);
    expect(counts).toEqual([1, 2, 3, 4, 4, 4, 4]);
  });

  it('never has more than four circles alive', () => {
    for (const s of run(60_000, 100)) expect(s.circles.length).toBeLessThanOrEqual(4);
  });

  it('removes a circle after its lifetime and replaces it', () => {
    const states = run(9000);
    const at = (ms: number) => states[ms / ExpandingCirclesEvery];
    expect(at(7500).circles.map((c) => c.id)).toEqual([0, 1, 2, 3]);
    // Circle 0 (born at 0) ends at 8000 and circle 4 takes its place.
    expect(at(8000).circles.map((c) => c.id)).toEqual([1, 2, 3, 4]);
    expect(at(8500).circles.map((c) => c.id)).toEqual([2, 3, 4, 5]);
  });

  it('keeps every circle for exactly its lifetime', () => {
    const states = run(40_000, 50);
    const seen = new Map<number, { first: number; last: number }>();
    states.forEach((s, i) => {
      for (const c of s.circles) {
        const t = i * 50;
        const span = seen.get(c.id) ?? { first: t, last: t };
        span.last = t;
        seen.set(c.id, span);
      }
    });
    for (const [id, span] of seen) {
      if (span.last === 40_000) continue; // still alive at the end
      expect(span.last - span.first, `circle ${id}`).toBe(ExpandingCircleLifetime - 50);
    }
  });

  it('returns the same state when nothing changes', () => {
    const full = lastOf(run(2000));
    expect(advanceCircles(full, 2100, limits)).toBe(full);
  });

  it('drops expired circles after a long pause, then starts again', () => {
    const full = lastOf(run(2000));
    const later = advanceCircles(full, 100_000, limits);
    expect(later.circles).toEqual([{ id: 4, bornMs: 100_000 }]);
  });
});
