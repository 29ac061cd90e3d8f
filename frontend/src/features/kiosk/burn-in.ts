/** The farthest the content moves, as a share of the screen's width and height. */
export const burnInMaxShare = 0.015;

/** The radius of the walk, in CSS pixels, on screens large enough for it. */
const burnInRadiusPx = 6;

/** Positions on the walk: the content visits eight points of a small circle. */
const burnInSteps = 8;

/**
 * Returns how far to shift the content in minute number `minute`, so a screen
 * that is on all day never shows the same pixels for long: a slow walk around
 * a small circle, never more than burnInMaxShare of the screen in either axis.
 */
export function burnInShift(
  minute: number,
  width: number,
  height: number,
): { x: number; y: number } {
  const radius = Math.min(
    burnInRadiusPx,
    Math.floor(burnInMaxShare * width),
    Math.floor(burnInMaxShare * height),
  );
  const step = ((minute % burnInSteps) + burnInSteps) % burnInSteps;
  const angle = (step / burnInSteps) * 2 * Math.PI;
  // + 0 turns -0 into 0.
  return {
    x: Math.round(radius * Math.cos(angle)) + 0,
    y: Math.round(radius * Math.sin(angle)) + 0,
  };
}
