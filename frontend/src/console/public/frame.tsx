import { lazy, Suspense, useEffect } from 'react';
import { useRoutes } from 'react-router';
import { loadPage } from '../../components/page-load';
import { usePlatform } from '../../platform';
import './frame.css';
import { Enrol, SignIn } from './pages';

// Every page under /admin but sign-in and enrol: the console, a chunk of
// its own built into assets/console/ (vite.config.ts), which the server
// hands out only with a session. Not fetched before the frame renders: the
// desktop window, which has no console, must never ask for it.
const Console = lazy(() => loadPage(() => import('../console')));

/**
 * The /admin pages in their frame: no site header or footer, and in the
 * desktop window only a sentence (passkeys do not work in its webview).
 */
export default function AdminPages() {
  const platform = usePlatform();
  const page = useRoutes([
    { path: 'signin', element: <SignIn /> },
    { path: 'enrol', element: <Enrol /> },
    { path: '*', element: <Console /> },
  ]);
  useEffect(() => {
    document.body.classList.add('no-header');
    return () => document.body.classList.remove('no-header');
  }, []);
  if (platform.kind === 'desktop') {
    const site = platform.siteUrl ? platform.siteUrl.replace(/\/+$/, '') : 'the website';
    return (
      <main id="main" className="admin-unavailable">
        <h1>Team console</h1>
        <p>
          The console is not available in the kiosk window; open {site}/admin on a phone or in a
          browser.
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="admin">
      {/* What fails here (the console's code that cannot be fetched too) shows the /admin route's notice, in place of this frame. */}
      <Suspense fallback={<p className="loading">Loading…</p>}>{page}</Suspense>
    </main>
  );
}
