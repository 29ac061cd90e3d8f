import { describe, expect, it } from 'vitest';
import { WaveAmplitude, WaveLength, WavePathStep } from '../../gen/spec.gen';
import { revealBaseline, revealProgress, scrollPhase, waveClipPath, waveEdge } from './wave';

const spec = { amplitude: WaveAmplitude, wavelength: WaveLength, step: WavePathStep };

/** The numbers of a path() value, as [x, y] pairs. */
function pairs(clip: string): Array<[number, number]> {
  const nums = (clip.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < nums.length; i += 2) out.push([nums[i], nums[i + 1]]);
  return out;
}

describe('waveEdge', () => {
  it('uses the spec constants', () => {
    expect(spec).toEqual({ amplitude: 40, wavelength: 500, step: 4 });
  });

  it('puts a point every step px and one at the right edge', () => {
    const edge = waveEdge({ ...spec, width: 10, height: 100, phase: 0 });
    expect(edge.map(([x]) => x)).toEqual([0, 4, 8, 10]);
  });

  it('does not repeat the right edge when width is a whole number of steps', () => {
    const edge = waveEdge({ ...spec, width: 1920, height: 540, phase: 0 });
    expect(edge).toHaveLength(1920 / 4 + 1);
    expect(edge.at(-1)?.[0]).toBe(1920);
  });

  it('follows a sine of the given amplitude and wavelength', () => {
    const edge = waveEdge({ ...spec, width: 1000, height: 540, phase: 0 });
    const y = new Map(edge);
    expect(y.get(0)).toBeCloseTo(40); // middle line = amplitude
    expect(y.get(124)).toBeCloseTo(40 + 40 * Math.sin((2 * Math.PI * 124) / 500));
    expect(y.get(500)).toBeCloseTo(40); // one full wavelength later
    for (const [, v] of edge) {
      expect(v).toBeGreaterThanOrEqual(0 - 1e-9);
      expect(v).toBeLessThanOrEqual(80 + 1e-9);
    }
  });

  it('shifts with the phase', () => {
    const a = waveEdge({ ...spec, width: 8, height: 100, phase: 0 });
    const b = waveEdge({ ...spec, width: 8, height: 100, phase: Math.PI / 2 });
    expect(b[0][1]).toBeCloseTo(80);
    expect(a[0][1]).not.toBeCloseTo(b[0][1]);
  });

  it('moves the middle line with baseline', () => {
    const edge = waveEdge({ ...spec, width: 4, height: 100, phase: 0, baseline: 300 });
    expect(edge[0][1]).toBeCloseTo(300);
  });
});

describe('waveClipPath', () => {
  it('builds a closed path() in px', () => {
    const clip = waveClipPath({ ...spec, width: 8, height: 100, phase: Math.PI / 2 });
    expect(clip).toBe("path('M0 80 L4 79.95 L8 79.8 L8 100 L0 100 Z')");
  });

  it('closes along the bottom of the box', () => {
    const clip = waveClipPath({ ...spec, width: 1366, height: 384, phase: 1.3 }) ?? '';
    expect(clip.startsWith("path('M0 ")).toBe(true);
    expect(clip.endsWith("L1366 384 L0 384 Z')")).toBe(true);
    const pts = pairs(clip);
    // the edge points, then the two bottom corners
    expect(pts).toHaveLength(Math.ceil(1366 / 4) + 1 + 2);
  });

  it('has no size until the box was measured', () => {
    expect(waveClipPath({ ...spec, width: 0, height: 540, phase: 0 })).toBeNull();
    expect(waveClipPath({ ...spec, width: 540, height: 0, phase: 0 })).toBeNull();
    expect(waveClipPath({ ...spec, width: 540, height: 540, phase: 0, step: 0 })).toBeNull();
    expect(waveClipPath({ ...spec, width: Number.NaN, height: 540, phase: 0 })).toBeNull();
  });

  it('never prints -0', () => {
    const clip = waveClipPath({ ...spec, width: 4, height: 10, phase: Math.PI, baseline: 0 }) ?? '';
    expect(clip).not.toContain('-0 ');
    expect(clip).toContain('M0 0 ');
  });
});

describe('scrollPhase', () => {
  it('moves one period per wavelength of scrolling', () => {
    expect(scrollPhase(0, 500)).toBe(0);
    expect(scrollPhase(125, 500)).toBeCloseTo(Math.PI / 2);
    expect(scrollPhase(250, 500)).toBeCloseTo(Math.PI);
    expect(scrollPhase(500, 500)).toBeCloseTo(0);
  });

  it('scales with speed and runs backwards for a negative speed', () => {
    expect(scrollPhase(125, 500, 2)).toBeCloseTo(Math.PI);
    expect(scrollPhase(125, 500, -1)).toBeCloseTo((3 * Math.PI) / 2);
  });

  it('stays in [0, 2π)', () => {
    for (let y = -3000; y <= 3000; y += 37) {
      const p = scrollPhase(y, 500, 1.7);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(2 * Math.PI);
    }
  });
});

describe('revealProgress', () => {
  it.each([
    [1200, 1000, 0],
    [1000, 1000, 0],
    [500, 1000, 0.5],
    [0, 1000, 1],
    [-300, 1000, 1],
  ])('top %i in a %i px viewport → %f', (top, vh, want) => {
    expect(revealProgress(top, vh)).toBe(want);
  });

  it('shows everything in an empty viewport', () => {
    expect(revealProgress(100, 0)).toBe(1);
  });
});

describe('revealBaseline', () => {
  it('hides the whole wave under the box at 0 and lifts it above at 1', () => {
    expect(revealBaseline(0, 1000, 40)).toBe(1040);
    expect(revealBaseline(1, 1000, 40)).toBe(-40);
    expect(revealBaseline(0.5, 1000, 40)).toBe(500);
  });

  it('clamps the progress', () => {
    expect(revealBaseline(-1, 1000, 40)).toBe(1040);
    expect(revealBaseline(2, 1000, 40)).toBe(-40);
  });

  it('leaves nothing of the box at 0 and all of it at 1', () => {
    const hidden = waveEdge({
      ...spec,
      width: 1000,
      height: 1000,
      phase: 0.4,
      baseline: revealBaseline(0, 1000, 40),
    });
    for (const [, y] of hidden) expect(y).toBeGreaterThanOrEqual(1000 - 1e-9);
    const shown = waveEdge({
      ...spec,
      width: 1000,
      height: 1000,
      phase: 0.4,
      baseline: revealBaseline(1, 1000, 40),
    });
    for (const [, y] of shown) expect(y).toBeLessThanOrEqual(1e-9);
  });
});
