// Renders the console's routes (public/routes.tsx) under /admin for its
// tests, as the site mounts them (app.tsx), on a fake platform in a browser.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routerReady } from '../../shared/page-load';
import { createFakePlatform } from '../../shared/test-platform';
import { PlatformContext, type Platform } from '../../platform';
import { consoleRoutes } from './public/routes';

/**
 * Renders the console at path (a path under /admin) once its router is
 * ready (its first page loaded, as main.tsx waits), on a browser's fake
 * platform with what platform changes; returns the router.
 */
export async function renderConsoleAt(path: string, platform: Partial<Platform> = {}) {
  const router = createMemoryRouter([{ path: '/admin', children: consoleRoutes }], {
    initialEntries: [path],
  });
  await routerReady(router);
  const fake = createFakePlatform(Date.UTC(2026, 2, 14, 9));
  render(
    <PlatformContext.Provider value={{ ...fake.platform, ...platform }}>
      <RouterProvider router={router} />
    </PlatformContext.Provider>,
  );
  return router;
}
