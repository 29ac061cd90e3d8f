import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** The last scroll position of each history entry visited in this tab, by location key. */
const positions = new Map<string, number>();

/**
 * Puts a new page at its top and a page reached with Back or Forward where
 * the visitor left it. The browser's own restoration cannot do this for an
 * app whose pages render after the history entry changes, so it is turned
 * off while the app runs. A link to a fragment (the skip link) is left to
 * the browser.
 */
export function useScrollRestoration(): void {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    return () => {
      window.history.scrollRestoration = before;
    };
  }, []);

  useLayoutEffect(() => {
    if (!hash) {
      window.scrollTo(0, navigationType === 'POP' ? (positions.get(key) ?? 0) : 0);
    }
    const remember = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, [key, hash, navigationType]);
}
