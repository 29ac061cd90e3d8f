// The banner slideshow as a pure state machine (docs/SPEC.md sections 4 and 9).
// Every transition takes the current time, so the rules are tested without
// timers; createSlideshowDriver adds the timers for the React hook.
import { KeyPressThrottle, SlideAnimation, SlideshowAutoAdvance } from '../../gen/spec.gen';

/** Which way the last move went; the UI may use it to choose an animation. */
export type SlideDirection = 'forward' | 'backward';

/** One moment of a slideshow. Times are epoch milliseconds. */
export interface SlideshowState {
  /** How many slides there are. */
  readonly count: number;
  /** The slide shown now. */
  readonly index: number;
  /** The slide being animated out, or null when no animation runs. */
  readonly leaving: number | null;
  readonly direction: SlideDirection;
  /** When the running slide animation ends; null when idle (the "animating" flag). */
  readonly animatingUntil: number | null;
  /** When the timer advances to the next slide; null while auto-advance is off. */
  readonly advanceAt: number | null;
  /** When the last arrow key was accepted, for the key throttle; null before any. */
  readonly lastKeyAt: number | null;
  /** Whether the timer advances the slides. */
  readonly playing: boolean;
}

/** Everything that can happen to a slideshow. */
export type SlideshowEvent =
  | { readonly type: 'next'; readonly now: number }
  | { readonly type: 'previous'; readonly now: number }
  | { readonly type: 'select'; readonly index: number; readonly now: number }
  | { readonly type: 'key'; readonly key: string; readonly repeat: boolean; readonly now: number }
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'play'; readonly now: number }
  | { readonly type: 'pause'; readonly now: number };

/** Returns a slideshow of count slides on the first slide; playing starts the timer. */
export function initialSlideshow(count: number, now: number, playing = true): SlideshowState {
  const slides = Math.max(0, Math.floor(count));
  const autoAdvances = playing && slides > 1;
  return {
    count: slides,
    index: 0,
    leaving: null,
    direction: 'forward',
    animatingUntil: null,
    advanceAt: autoAdvances ? now + SlideshowAutoAdvance : null,
    lastKeyAt: null,
    playing,
  };
}

/** Reports whether a slide animation is running at now. */
export function isAnimating(state: SlideshowState, now: number): boolean {
  return state.animatingUntil !== null && now < state.animatingUntil;
}

/** The next time something changes on its own (an animation ends or the timer fires), or null. */
export function nextDeadline(state: SlideshowState): number | null {
  const times = [state.animatingUntil, state.advanceAt].filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.min(...times);
}

/** Returns the state after event; the same object when the event changes nothing. */
export function slideshowReducer(state: SlideshowState, event: SlideshowEvent): SlideshowState {
  const current = settle(state, event.now);
  switch (event.type) {
    case 'next':
      return step(current, 1, event.now);
    case 'previous':
      return step(current, -1, event.now);
    case 'select':
      return select(current, event.index, event.now);
    case 'key':
      return key(current, event.key, event.repeat, event.now);
    case 'tick':
      if (current.advanceAt !== null && event.now >= current.advanceAt) {
        return step(current, 1, event.now);
      }
      return current;
    case 'play':
      if (current.playing) return current;
      return {
        ...current,
        playing: true,
        advanceAt: current.count > 1 ? event.now + SlideshowAutoAdvance : null,
      };
    case 'pause':
      if (!current.playing) return current;
      return { ...current, playing: false, advanceAt: null };
  }
}

/** Clears the animating flag once the animation time has passed. */
function settle(state: SlideshowState, now: number): SlideshowState {
  if (state.animatingUntil === null || now < state.animatingUntil) return state;
  return { ...state, animatingUntil: null, leaving: null };
}

/** Moves by delta slides with wrap-around, unless an animation is running. */
function step(state: SlideshowState, delta: 1 | -1, now: number): SlideshowState {
  if (state.count < 2 || isAnimating(state, now)) return state;
  const index = (state.index + delta + state.count) % state.count;
  return moveTo(state, index, delta === 1 ? 'forward' : 'backward', now);
}

/** Shows slide index directly; the spec blocks only next and previous while animating. */
function select(state: SlideshowState, index: number, now: number): SlideshowState {
  if (!Number.isInteger(index) || index < 0 || index >= state.count || index === state.index) {
    return state;
  }
  return moveTo(state, index, index > state.index ? 'forward' : 'backward', now);
}

/** Arrow keys move and restart the timer: one key per KeyPressThrottle, repeats ignored. */
function key(state: SlideshowState, name: string, repeat: boolean, now: number): SlideshowState {
  const delta = name === 'ArrowRight' ? 1 : name === 'ArrowLeft' ? -1 : 0;
  if (delta === 0 || repeat) return state;
  if (state.lastKeyAt !== null && now - state.lastKeyAt < KeyPressThrottle) return state;
  const moved = step(state, delta, now);
  return { ...moved, lastKeyAt: now };
}

/** Starts the animation to index and restarts the auto-advance timer. */
function moveTo(
  state: SlideshowState,
  index: number,
  direction: SlideDirection,
  now: number,
): SlideshowState {
  return {
    ...state,
    index,
    leaving: state.index,
    direction,
    animatingUntil: now + SlideAnimation,
    advanceAt: state.playing ? now + SlideshowAutoAdvance : null,
  };
}

/** What createSlideshowDriver needs of its host; tests pass fake timers through the defaults. */
export interface SlideshowDriverOptions {
  /** The current time in epoch milliseconds; default Date.now. */
  now?: () => number;
  /** Whether the timer starts running; default true. */
  playing?: boolean;
}

/** A slideshow with its timers: the object the React hook subscribes to. */
export interface SlideshowDriver {
  getState(): SlideshowState;
  /** Applies an event at the current time. */
  dispatch(event: DriverEvent): void;
  /** Calls listener after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Arms the timer; call again after stop to resume. */
  start(): void;
  /** Disarms the timer (the state is kept). */
  stop(): void;
}

/** A slideshow event without its time; the driver stamps it. */
export type DriverEvent = WithoutNow<SlideshowEvent>;

/** Drops the time from each member of an event union. */
type WithoutNow<E> = E extends unknown ? Omit<E, 'now'> : never;

/** Returns a driver for count slides that runs the reducer on real (or faked) timers. */
export function createSlideshowDriver(
  count: number,
  options: SlideshowDriverOptions = {},
): SlideshowDriver {
  const now = options.now ?? (() => Date.now());
  let state = initialSlideshow(count, now(), options.playing ?? true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const listeners = new Set<() => void>();

  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!running) return;
    const deadline = nextDeadline(state);
    if (deadline === null) return;
    timer = setTimeout(() => dispatch({ type: 'tick' }), Math.max(0, deadline - now()));
  };

  const dispatch = (event: DriverEvent) => {
    const next = slideshowReducer(state, { ...event, now: now() } as SlideshowEvent);
    if (next !== state) {
      state = next;
      listeners.forEach((l) => l());
    }
    schedule();
  };

  return {
    getState: () => state,
    dispatch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (running) return;
      running = true;
      // A timer that fell due while stopped fires right away.
      schedule();
    },
    stop() {
      running = false;
      schedule();
    },
  };
}
