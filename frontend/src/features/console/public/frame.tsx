import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { usePlatform } from '../../../platform';
import './frame.css';

/**
 * The frame of the /admin pages: no site header or footer, and in the
 * desktop window only a sentence (passkeys do not work in its webview; its
 * server has no console, and the console's code is never asked for there:
 * routes.tsx fetches it only once someone is signed in).
 */
export function AdminFrame() {
  const platform = usePlatform();
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
      <Outlet />
    </main>
  );
}
