import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { createSlideshowDriver, type SlideshowState } from './slideshow-state';

/** What a slideshow component renders from and the moves it can ask for. */
export interface SlideshowControls {
  state: SlideshowState;
  next(): void;
  previous(): void;
  select(index: number): void;
}

/** Reports whether a key press belongs to a text field or similar, not to the page. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * Runs the slideshow state machine of slideshow-state.ts on timers for count slides.
 * autoAdvance switches the timer (off for reduced motion, while paused or focused);
 * the page's Arrow Right and Arrow Left keys move the slides.
 */
export function useSlideshow(count: number, autoAdvance: boolean): SlideshowControls {
  const driver = useMemo(() => createSlideshowDriver(count, { playing: false }), [count]);
  const state = useSyncExternalStore(driver.subscribe, driver.getState, driver.getState);

  useEffect(() => {
    driver.start();
    return () => driver.stop();
  }, [driver]);

  useEffect(() => {
    driver.dispatch({ type: autoAdvance ? 'play' : 'pause' });
  }, [driver, autoAdvance]);

  useEffect(() => {
    if (count < 2) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
      if (typingInto(event.target)) return;
      driver.dispatch({ type: 'key', key: event.key, repeat: event.repeat });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [driver, count]);

  const next = useCallback(() => driver.dispatch({ type: 'next' }), [driver]);
  const previous = useCallback(() => driver.dispatch({ type: 'previous' }), [driver]);
  const select = useCallback(
    (index: number) => driver.dispatch({ type: 'select', index }),
    [driver],
  );
  return { state, next, previous, select };
}
