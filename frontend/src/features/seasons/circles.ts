// State of the expanding circles on the Crescendo page: a new circle every
// `every` ms while fewer than `max` are alive, each alive for `lifetime` ms.
// The page calls advanceCircles on a timer and draws what it returns.

/** One circle and the moment it appeared. */
export interface Circle {
  id: number;
  bornMs: number;
}

/** The circles alive now and the bookkeeping to spawn the next one. */
export interface CirclesState {
  circles: readonly Circle[];
  /** The id the next circle gets (ids are never reused, so React keys stay stable). */
  nextId: number;
  /** When the last circle appeared; null before the first. */
  lastSpawnMs: number | null;
}

/** Limits of the animation (docs/SPEC.md section 9, "Expanding circles"). */
export interface CirclesLimits {
  max: number;
  everyMs: number;
  lifetimeMs: number;
}

/** The state before any circle appeared. */
export const noCircles: CirclesState = { circles: [], nextId: 0, lastSpawnMs: null };

/**
 * Returns the state at nowMs: circles older than the lifetime are gone, and a
 * new circle appears when there is room and `every` ms passed since the last
 * one. It returns state itself when nothing changed, so a React state setter
 * skips the re-render.
 */
export function advanceCircles(
  state: CirclesState,
  nowMs: number,
  limits: CirclesLimits,
): CirclesState {
  const alive = state.circles.filter((c) => nowMs - c.bornMs < limits.lifetimeMs);
  const due = state.lastSpawnMs === null || nowMs - state.lastSpawnMs >= limits.everyMs;
  if (due && alive.length < limits.max) {
    return {
      circles: [...alive, { id: state.nextId, bornMs: nowMs }],
      nextId: state.nextId + 1,
      lastSpawnMs: nowMs,
    };
  }
  if (alive.length === state.circles.length) return state;
  return { ...state, circles: alive };
}
