// Wavy clip paths of the Rebuilt page. A section's top edge follows a sine
// wave whose phase moves with the scroll position; the result is a CSS
// `path()` the page puts in the section's clip-path.

/** The shape of one wavy edge. */
export interface WaveOptions {
  /** Size of the clipped box in CSS pixels. */
  width: number;
  height: number;
  /** Peak height of the wave above and below its middle line, px. */
  amplitude: number;
  /** Length of one full wave, px. */
  wavelength: number;
  /** Distance between the points of the polygon along x, px. */
  step: number;
  /** Shift of the wave in radians. */
  phase: number;
  /** Height of the wave's middle line from the top; default amplitude (crests touch the top). */
  baseline?: number;
}

const fmt = (n: number) => {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};

/**
 * Returns the points of the wavy top edge, left to right: one every step px
 * from 0, plus one at width when width is not a whole number of steps.
 */
export function waveEdge(options: WaveOptions): Array<[number, number]> {
  const { width, amplitude, wavelength, step, phase } = options;
  const baseline = options.baseline ?? amplitude;
  const k = (2 * Math.PI) / wavelength;
  const y = (x: number) => baseline + amplitude * Math.sin(k * x + phase);
  const points: Array<[number, number]> = [];
  for (let x = 0; x < width; x += step) points.push([x, y(x)]);
  points.push([width, y(width)]);
  return points;
}

/**
 * Returns a CSS clip-path value that keeps everything of a width × height box
 * below a wave (SVG path syntax in px, closed along the bottom), or null when
 * the box has no size yet or the options cannot make a wave.
 */
export function waveClipPath(options: WaveOptions): string | null {
  const { width, height, wavelength, step } = options;
  if (!(width > 0 && height > 0 && wavelength > 0 && step > 0)) return null;
  const edge = waveEdge(options);
  const parts = edge.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${fmt(x)} ${fmt(y)}`);
  parts.push(`L${fmt(width)} ${fmt(height)}`, `L0 ${fmt(height)}`, 'Z');
  return `path('${parts.join(' ')}')`;
}

/**
 * Returns the wave's phase for a scroll position: one wavelength of scrolling
 * moves the wave by one full period times speed (negative speed moves it the
 * other way). Kept in [0, 2π).
 */
export function scrollPhase(scrollY: number, wavelength: number, speed = 1): number {
  const turn = 2 * Math.PI;
  const p = ((scrollY * speed) / wavelength) * turn;
  const wrapped = ((p % turn) + turn) % turn;
  return wrapped === turn ? 0 : wrapped;
}

/**
 * Returns how far a box has come into view from below: 0 while its top is at
 * or under the bottom of the viewport, 1 once its top reached the top.
 */
export function revealProgress(boxTop: number, viewportHeight: number): number {
  if (viewportHeight <= 0) return 1;
  return Math.min(1, Math.max(0, 1 - boxTop / viewportHeight));
}

/**
 * Returns the middle line of a revealing wave: at progress 0 the whole wave
 * sits under the box (nothing shows), at 1 above it (everything shows).
 */
export function revealBaseline(progress: number, height: number, amplitude: number): number {
  const p = Math.min(1, Math.max(0, progress));
  return height + amplitude - p * (height + 2 * amplitude);
}
