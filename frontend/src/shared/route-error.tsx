import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useNavigation, useRouteError } from 'react-router';
import { reloadDocument } from './reload';
import { PageLoadError } from './page-load';
import './route-error.css';

/** How soon a failed page tries again by itself (an unattended screen has nobody to click). */
const retryAfterMs = 10_000;

/** Whether the site's server answers now. */
function serverAnswers(): Promise<boolean> {
  return fetch('/healthz', { cache: 'no-store' }).then(
    (res) => res.ok,
    () => false,
  );
}

/**
 * The error element of the routes: a page that failed to render or to
 * load (a page loaded on demand while offline) gets a branded notice
 * instead of a blank screen, and tries again after retryAfterMs, when the
 * network comes back, or when asked. The router shows the page again on
 * the next navigation by itself.
 */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  // A navigation under way (a link followed, the host's command) goes on:
  // a try now would cancel it.
  const navigating = useNavigation().state !== 'idle';
  const loadFailed = error instanceof PageLoadError;
  // Counts the tries put off (a navigation under way, the server still
  // away), to wait again after each.
  const [waits, setWaits] = useState(0);

  const retry = useCallback(() => {
    if (navigating) {
      setWaits((n) => n + 1);
      return;
    }
    if (!loadFailed) {
      // Going to the same place again renders the failed page again.
      void navigate(location, { replace: true, state: location.state as unknown });
      return;
    }
    // Only a fresh document fetches the page's files again. Reload only
    // when the server answers, so a visitor offline keeps this notice
    // rather than getting the browser's own error page.
    void serverAnswers().then((ok) => (ok ? reloadDocument() : setWaits((n) => n + 1)));
  }, [navigating, loadFailed, navigate, location]);

  useEffect(() => {
    console.warn('page failed; retrying soon', error);
  }, [error]);

  useEffect(() => {
    const timer = setTimeout(retry, retryAfterMs);
    window.addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [retry, error, waits]);

  return (
    <section className="route-error" role="alert">
      {loadFailed ? (
        <>
          <h1>This page could not be loaded</h1>
          <p>It will load by itself as soon as the site can be reached again.</p>
        </>
      ) : (
        <>
          <h1>This page hit a snag</h1>
          <p>It will try again by itself in a few seconds.</p>
        </>
      )}
      <button type="button" className="button" onClick={retry}>
        Try again now
      </button>
    </section>
  );
}
