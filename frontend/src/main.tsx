import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import { PlatformContext, type Platform } from './platform';
import { browserPlatform } from './platform/browser';
import './styles/global.css';

async function boot(): Promise<void> {
  let platform: Platform;
  if ('go' in window) {
    // Loaded only in the desktop window, so the website never ships the Wails bindings' calls.
    const desktop = await import('./platform/desktop');
    const settings = await desktop.desktopSettings();
    platform = desktop.desktopPlatform(settings);
    const here = window.location.pathname + window.location.search;
    if (window.location.pathname === '/' && settings.startRoute !== here) {
      window.history.replaceState(null, '', settings.startRoute);
    }
  } else {
    platform = browserPlatform();
  }
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
