import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ParallaxScrollThrottle } from '../../gen/spec.gen';
import { throttle } from './throttle';

/** A spy behind a throttle of the parallax window, the throttle already called with each of calls. */
function throttledSpy(...calls: number[]) {
  const fn = vi.fn();
  const t = throttle(fn, ParallaxScrollThrottle);
  for (const c of calls) t(c);
  return { fn, t };
}

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(5_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first call at once', () => {
    const { fn } = throttledSpy(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith(1);
  });

  it('collapses calls inside the window into one trailing call with the latest arguments', () => {
    const { fn } = throttledSpy(1, 2, 3);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(ParallaxScrollThrottle - 1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(3);
  });

  it('never runs more than once per window under a steady stream of calls', () => {
    const { fn, t } = throttledSpy();
    for (let ms = 0; ms < 160; ms += 2) {
      t(ms);
      vi.advanceTimersByTime(2);
    }
    expect(fn.mock.calls.length).toBeLessThanOrEqual(160 / ParallaxScrollThrottle + 1);
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(160 / ParallaxScrollThrottle - 1);
  });

  it('runs at once again after a quiet window', () => {
    const { fn, t } = throttledSpy(1);
    vi.advanceTimersByTime(ParallaxScrollThrottle * 3);
    t(2);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('cancel drops the trailing call', () => {
    const { fn, t } = throttledSpy(1, 2);
    t.cancel();
    vi.advanceTimersByTime(ParallaxScrollThrottle * 2);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
