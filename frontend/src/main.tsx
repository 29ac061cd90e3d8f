import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './app';
import { PlatformContext, type Platform } from './platform';
import { browserPlatform } from './platform/browser';
import { routerReady } from './shared/page-load';
import './shared/global.css';

async function boot(): Promise<void> {
  let platform: Platform;
  if ('go' in window) {
    // Loaded only in the desktop window, so the website never ships the Wails bindings' calls.
    const desktop = await import('./platform/desktop');
    // First, so what the page breaks while it starts is reported too.
    desktop.reportViolations();
    const settings = await desktop.desktopSettings();
    platform = desktop.desktopPlatform(settings);
    const here = window.location.pathname + window.location.search;
    if (window.location.pathname === '/' && settings.startRoute !== here) {
      window.history.replaceState(null, '', settings.startRoute);
    }
  } else {
    platform = browserPlatform();
  }
  // The router starts where the host said (above), and fetches a page
  // loaded on demand before the first render, so it comes whole rather
  // than after an empty screen that the page then pushes the footer away
  // from. A failure is the page's to show, as its notice.
  const router = createBrowserRouter(routes);
  await routerReady(router);
  const root = document.getElementById('root');
  if (!root) throw new Error('boot: #root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <PlatformContext.Provider value={platform}>
        <RouterProvider router={router} />
      </PlatformContext.Provider>
    </StrictMode>,
  );
}

boot().catch((err: unknown) => console.error('start-up failed', err));
