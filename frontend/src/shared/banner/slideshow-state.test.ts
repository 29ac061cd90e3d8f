import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createSlideshowDriver,
  initialSlideshow,
  isAnimating,
  nextDeadline,
  slideshowReducer,
  type SlideshowEvent,
  type SlideshowState,
} from './slideshow-state';
import { KeyPressThrottle, SlideAnimation, SlideshowAutoAdvance } from '../../gen/spec.gen';

const T0 = 1_000_000;

/** Applies events in order, each stamped with its own time. */
function run(state: SlideshowState, ...events: SlideshowEvent[]): SlideshowState {
  return events.reduce(slideshowReducer, state);
}

describe('initialSlideshow', () => {
  it('starts on the first slide with the timer armed', () => {
    const s = initialSlideshow(3, T0);
    expect(s.index).toBe(0);
    expect(s.count).toBe(3);
    expect(s.playing).toBe(true);
    expect(s.advanceAt).toBe(T0 + SlideshowAutoAdvance);
    expect(isAnimating(s, T0)).toBe(false);
  });

  it('arms no timer when paused or with fewer than two slides', () => {
    expect(initialSlideshow(3, T0, false).advanceAt).toBeNull();
    expect(initialSlideshow(1, T0).advanceAt).toBeNull();
    expect(initialSlideshow(0, T0).advanceAt).toBeNull();
  });
});

describe('next and previous', () => {
  it('next moves forward and starts the animation', () => {
    const s = run(initialSlideshow(3, T0), { type: 'next', now: T0 + 10 });
    expect(s.index).toBe(1);
    expect(s.leaving).toBe(0);
    expect(s.direction).toBe('forward');
    expect(s.animatingUntil).toBe(T0 + 10 + SlideAnimation);
    expect(isAnimating(s, T0 + 10)).toBe(true);
  });

  it('next wraps from the last slide to the first', () => {
    const s = run(
      initialSlideshow(3, T0),
      { type: 'next', now: T0 },
      { type: 'next', now: T0 + SlideAnimation },
      { type: 'next', now: T0 + 2 * SlideAnimation },
    );
    expect(s.index).toBe(0);
    expect(s.leaving).toBe(2);
  });

  it('previous wraps from the first slide to the last', () => {
    const s = run(initialSlideshow(3, T0), { type: 'previous', now: T0 });
    expect(s.index).toBe(2);
    expect(s.direction).toBe('backward');
  });

  it('ignores next and previous while the animating flag is set', () => {
    const moved = run(initialSlideshow(3, T0), { type: 'next', now: T0 });
    const during = T0 + SlideAnimation - 1;
    expect(slideshowReducer(moved, { type: 'next', now: during })).toBe(moved);
    expect(slideshowReducer(moved, { type: 'previous', now: during })).toBe(moved);
  });

  it('accepts the next move once the animation is over', () => {
    const s = run(
      initialSlideshow(3, T0),
      { type: 'next', now: T0 },
      { type: 'next', now: T0 + SlideAnimation },
    );
    expect(s.index).toBe(2);
  });

  it('restarts the timer on every move', () => {
    const s = run(initialSlideshow(3, T0), { type: 'next', now: T0 + 3000 });
    expect(s.advanceAt).toBe(T0 + 3000 + SlideshowAutoAdvance);
  });

  it('does nothing with a single slide', () => {
    const one = initialSlideshow(1, T0);
    expect(slideshowReducer(one, { type: 'next', now: T0 })).toBe(one);
    expect(slideshowReducer(one, { type: 'previous', now: T0 })).toBe(one);
  });
});

describe('select', () => {
  it('shows the chosen slide and restarts the timer', () => {
    const s = run(initialSlideshow(3, T0), { type: 'select', index: 2, now: T0 + 100 });
    expect(s.index).toBe(2);
    expect(s.direction).toBe('forward');
    expect(s.advanceAt).toBe(T0 + 100 + SlideshowAutoAdvance);
  });

  it('works while animating, which the spec only forbids for next and previous', () => {
    const s = run(
      initialSlideshow(3, T0),
      { type: 'next', now: T0 },
      { type: 'select', index: 0, now: T0 + 1 },
    );
    expect(s.index).toBe(0);
    expect(s.direction).toBe('backward');
  });

  it.each([[-1], [3], [1.5], [0]])('ignores index %s', (index) => {
    const s = initialSlideshow(3, T0);
    expect(slideshowReducer(s, { type: 'select', index, now: T0 })).toBe(s);
  });
});

describe('arrow keys', () => {
  const key = (k: string, now: number, repeat = false): SlideshowEvent => ({
    type: 'key',
    key: k,
    repeat,
    now,
  });

  it('ArrowRight moves forward and ArrowLeft back, restarting the timer', () => {
    const right = run(initialSlideshow(3, T0), key('ArrowRight', T0 + 2000));
    expect(right.index).toBe(1);
    expect(right.advanceAt).toBe(T0 + 2000 + SlideshowAutoAdvance);
    const left = run(right, key('ArrowLeft', T0 + 2000 + KeyPressThrottle));
    expect(left.index).toBe(0);
    expect(left.advanceAt).toBe(T0 + 2000 + KeyPressThrottle + SlideshowAutoAdvance);
  });

  it('takes at most one key per throttle window', () => {
    const first = run(initialSlideshow(3, T0), key('ArrowRight', T0));
    const tooSoon = run(first, key('ArrowRight', T0 + KeyPressThrottle - 1));
    expect(tooSoon.index).toBe(1);
    const later = run(first, key('ArrowRight', T0 + KeyPressThrottle));
    expect(later.index).toBe(2);
  });

  it('ignores key repeats', () => {
    const s = initialSlideshow(3, T0);
    expect(slideshowReducer(s, key('ArrowRight', T0, true))).toBe(s);
  });

  it('ignores other keys', () => {
    const s = initialSlideshow(3, T0);
    expect(slideshowReducer(s, key('ArrowUp', T0))).toBe(s);
    expect(slideshowReducer(s, key('Enter', T0))).toBe(s);
  });

  it('counts a key against the throttle even when an animation swallowed the move', () => {
    const moved = run(initialSlideshow(3, T0), { type: 'next', now: T0 });
    const swallowed = run(moved, key('ArrowRight', T0 + 100));
    expect(swallowed.index).toBe(1);
    expect(swallowed.lastKeyAt).toBe(T0 + 100);
    // The animation is over, but the throttle window of the swallowed key is not.
    const blocked = run(swallowed, key('ArrowRight', T0 + 100 + KeyPressThrottle - 1));
    expect(blocked.index).toBe(1);
  });
});

describe('tick, play and pause', () => {
  it('auto-advances when the timer is due, not before', () => {
    const s = initialSlideshow(3, T0);
    expect(run(s, { type: 'tick', now: T0 + SlideshowAutoAdvance - 1 }).index).toBe(0);
    const advanced = run(s, { type: 'tick', now: T0 + SlideshowAutoAdvance });
    expect(advanced.index).toBe(1);
    expect(advanced.advanceAt).toBe(T0 + 2 * SlideshowAutoAdvance);
  });

  it('clears the animating flag on the tick that ends the animation', () => {
    const moved = run(initialSlideshow(3, T0), { type: 'next', now: T0 });
    const settled = run(moved, { type: 'tick', now: T0 + SlideAnimation });
    expect(settled.animatingUntil).toBeNull();
    expect(settled.leaving).toBeNull();
    expect(settled.index).toBe(1);
  });

  it('pause stops the timer and play restarts it from now', () => {
    const paused = run(initialSlideshow(3, T0), { type: 'pause', now: T0 + 1000 });
    expect(paused.playing).toBe(false);
    expect(paused.advanceAt).toBeNull();
    expect(run(paused, { type: 'tick', now: T0 + 99_999 }).index).toBe(0);
    const manual = run(paused, { type: 'next', now: T0 + 2000 });
    expect(manual.index).toBe(1);
    expect(manual.advanceAt).toBeNull();
    const playing = run(manual, { type: 'play', now: T0 + 5000 });
    expect(playing.advanceAt).toBe(T0 + 5000 + SlideshowAutoAdvance);
  });

  it('play and pause are idempotent', () => {
    const s = initialSlideshow(3, T0);
    expect(slideshowReducer(s, { type: 'play', now: T0 })).toBe(s);
    const paused = run(s, { type: 'pause', now: T0 });
    expect(slideshowReducer(paused, { type: 'pause', now: T0 })).toBe(paused);
  });

  it('nextDeadline is the earlier of animation end and timer', () => {
    const s = initialSlideshow(3, T0);
    expect(nextDeadline(s)).toBe(T0 + SlideshowAutoAdvance);
    const moved = run(s, { type: 'next', now: T0 });
    expect(nextDeadline(moved)).toBe(T0 + SlideAnimation);
    expect(nextDeadline(initialSlideshow(3, T0, false))).toBeNull();
  });
});

describe('createSlideshowDriver on fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('advances every SlideshowAutoAdvance ms and wraps around', () => {
    const driver = createSlideshowDriver(3);
    driver.start();
    const seen: number[] = [];
    driver.subscribe(() => seen.push(driver.getState().index));
    vi.advanceTimersByTime(SlideshowAutoAdvance - 1);
    expect(driver.getState().index).toBe(0);
    vi.advanceTimersByTime(1);
    expect(driver.getState().index).toBe(1);
    vi.advanceTimersByTime(SlideshowAutoAdvance);
    expect(driver.getState().index).toBe(2);
    vi.advanceTimersByTime(SlideshowAutoAdvance);
    expect(driver.getState().index).toBe(0);
    expect(seen).toEqual([1, 1, 2, 2, 0]);
    // Each advance notifies once on the move and once when the animation ends.
    vi.advanceTimersByTime(SlideAnimation);
    expect(seen).toEqual([1, 1, 2, 2, 0, 0]);
    driver.stop();
  });

  it('clears the animating flag after SlideAnimation ms', () => {
    const driver = createSlideshowDriver(3);
    driver.start();
    driver.dispatch({ type: 'next' });
    expect(isAnimating(driver.getState(), Date.now())).toBe(true);
    driver.dispatch({ type: 'next' });
    expect(driver.getState().index).toBe(1);
    vi.advanceTimersByTime(SlideAnimation);
    expect(driver.getState().animatingUntil).toBeNull();
    driver.dispatch({ type: 'next' });
    expect(driver.getState().index).toBe(2);
    driver.stop();
  });

  it('an arrow key restarts the timer', () => {
    const driver = createSlideshowDriver(3);
    driver.start();
    vi.advanceTimersByTime(3000);
    driver.dispatch({ type: 'key', key: 'ArrowRight', repeat: false });
    expect(driver.getState().index).toBe(1);
    // The old deadline (4000 ms after start) passes without a move.
    vi.advanceTimersByTime(SlideshowAutoAdvance - 1);
    expect(driver.getState().index).toBe(1);
    vi.advanceTimersByTime(1);
    expect(driver.getState().index).toBe(2);
    driver.stop();
  });

  it('throttles keys to one per KeyPressThrottle ms on the clock', () => {
    const driver = createSlideshowDriver(5);
    driver.start();
    driver.dispatch({ type: 'key', key: 'ArrowLeft', repeat: false });
    expect(driver.getState().index).toBe(4);
    vi.advanceTimersByTime(KeyPressThrottle - 1);
    driver.dispatch({ type: 'key', key: 'ArrowLeft', repeat: false });
    expect(driver.getState().index).toBe(4);
    vi.advanceTimersByTime(1);
    driver.dispatch({ type: 'key', key: 'ArrowLeft', repeat: false });
    expect(driver.getState().index).toBe(3);
    driver.stop();
  });

  it('runs no timer while stopped and catches up when started again', () => {
    const driver = createSlideshowDriver(3);
    driver.start();
    driver.stop();
    vi.advanceTimersByTime(SlideshowAutoAdvance * 3);
    expect(driver.getState().index).toBe(0);
    driver.start();
    vi.advanceTimersByTime(0);
    expect(driver.getState().index).toBe(1);
    driver.stop();
  });

  it('does not advance while paused', () => {
    const driver = createSlideshowDriver(3, { playing: false });
    driver.start();
    vi.advanceTimersByTime(SlideshowAutoAdvance * 5);
    expect(driver.getState().index).toBe(0);
    driver.dispatch({ type: 'play' });
    vi.advanceTimersByTime(SlideshowAutoAdvance);
    expect(driver.getState().index).toBe(1);
    driver.stop();
  });

  it('stops notifying after unsubscribe', () => {
    const driver = createSlideshowDriver(3);
    driver.start();
    const listener = vi.fn();
    const off = driver.subscribe(listener);
    off();
    driver.dispatch({ type: 'next' });
    expect(listener).not.toHaveBeenCalled();
    driver.stop();
  });
});
