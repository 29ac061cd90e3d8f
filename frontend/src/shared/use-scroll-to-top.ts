import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Puts the page at its top after every navigation, Back and Forward
 * included (docs/SPEC.md section 2), before the new page is painted. The
 * browser's own restoration is turned off while the app runs, so it cannot
 * move a page afterwards. A link within the page (the skip link) keeps the
 * path and is left to the browser.
 */
export function useScrollToTop(): void {
  const { pathname } = useLocation();

  useEffect(() => {
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    return () => {
      window.history.scrollRestoration = before;
    };
  }, []);

  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}
