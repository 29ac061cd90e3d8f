import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App, preloadPage } from './app';
import { PlatformContext, type Platform } from './platform';
import { browserPlatform } from './platform/browser';
import './styles/global.css';

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
  // A page loaded on demand comes whole in the first render, rather than a
  // short fallback first that the page then pushes the footer away from. A
  // failure is the page's to show, when it renders.
  await preloadPage(window.location.pathname).catch(() => {});
  const root = document.getElementById('root');
  if (!root) throw new Error('boot: #root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <PlatformContext value={platform}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </PlatformContext>
    </StrictMode>,
  );
}

boot().catch((err: unknown) => console.error('start-up failed', err));
