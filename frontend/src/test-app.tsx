// Shared by the tests that render the whole App (the frame, the route table,
// each page's head): the fake platform at a fixed time, and the set-up jsdom needs.
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { routes } from './app';
import { createFakePlatform } from './shared/test-platform';
import { PlatformContext } from './platform';
import { routerReady } from './shared/page-load';

/** Renders ui on the shared fake platform, its clock at kickoff day, 12:09 in Tulsa. */
export function renderOnFakePlatform(ui: ReactNode) {
  const fake = createFakePlatform(Date.UTC(2025, 0, 4, 18, 9));
  return render(<PlatformContext.Provider value={fake.platform}>{ui}</PlatformContext.Provider>);
}

/** Renders the whole site at path, once its router is ready; returns the router. */
export async function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await routerReady(router);
  renderOnFakePlatform(<RouterProvider router={router} />);
  return router;
}

/**
 * For a suite that renders the App: jsdom cannot scroll, so window.scrollTo
 * is stubbed before each test; after it, the DOM, the mocks and the body's
 * classes are reset.
 */
export function setUpAppTests(): void {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    document.body.className = '';
  });
}
