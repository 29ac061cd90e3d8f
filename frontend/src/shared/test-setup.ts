import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

/** The one media query the site asks from script (use-motion-preference.ts). */
const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

let reducedMotion = false;
const reducedMotionListeners = new Set<EventListener>();

// jsdom has no matchMedia. This one answers the reduced-motion query from a
// setting the tests change, and every other query with false.
window.matchMedia = (query: string): MediaQueryList => {
  const watched = query === reducedMotionQuery;
  const list = {
    media: query,
    get matches() {
      return watched && reducedMotion;
    },
    onchange: null,
    addEventListener(type: string, listener: EventListener) {
      if (watched && type === 'change') reducedMotionListeners.add(listener);
    },
    removeEventListener(type: string, listener: EventListener) {
      if (type === 'change') reducedMotionListeners.delete(listener);
    },
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  };
  return list as MediaQueryList;
};

/**
 * Sets whether the visitor prefers reduced motion, and tells the queries
 * listening for changes, as a browser does when the setting changes.
 */
export function setReducedMotion(on: boolean): void {
  reducedMotion = on;
  const event = new Event('change');
  reducedMotionListeners.forEach((listener) => listener(event));
}

afterEach(() => {
  reducedMotion = false;
});
