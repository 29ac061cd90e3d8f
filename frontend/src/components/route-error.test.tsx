import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadDocument } from '../lib/reload';
import { routerReady } from '../app';
import { onDemand } from './page-load';
import { RouteError } from './route-error';

vi.mock('../lib/reload', () => ({ reloadDocument: vi.fn() }));

/** The server's answer to /healthz: up, or unreachable. */
let serverUp = true;

/** Renders page, with the route error element, at /. */
async function renderPage(page: Pick<RouteObject, 'Component' | 'lazy'>) {
  const router = createMemoryRouter([{ path: '/', errorElement: <RouteError />, ...page }]);
  await routerReady(router);
  await act(async () => {
    render(<RouterProvider router={router} />);
  });
}

/** Lets fetch and the timers of the boundary run. */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('RouteError', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    serverUp = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        serverUp
          ? Promise.resolve(new Response('{}', { status: 200 }))
          : Promise.reject(new TypeError('Failed to fetch')),
      ),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.mocked(reloadDocument).mockClear();
  });

  it('renders a page that failed to render again when asked, and by itself after 10 s', async () => {
    let broken = true;
    function Flaky() {
      if (broken) throw new Error('render failed');
      return <h1>Fine now</h1>;
    }
    await renderPage({ Component: Flaky });
    expect(screen.getByRole('alert')).toHaveTextContent('This page hit a snag');

    fireEvent.click(screen.getByRole('button', { name: 'Try again now' }));
    expect(screen.getByRole('alert')).toBeInTheDocument();

    broken = false;
    await settle(10_000);
    expect(screen.getByRole('heading', { name: 'Fine now' })).toBeInTheDocument();
    expect(reloadDocument).not.toHaveBeenCalled();
  });

  it('loads the document again for a page whose files could not be fetched, once the server answers', async () => {
    serverUp = false;
    await renderPage(
      onDemand(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This page could not be loaded');

    // Offline: the notice stays; no reload into the browser's error page.
    fireEvent.click(screen.getByRole('button', { name: 'Try again now' }));
    await settle();
    await settle(10_000);
    expect(reloadDocument).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toBeInTheDocument();

    // The network is back: the next try reloads.
    serverUp = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    expect(reloadDocument).toHaveBeenCalledTimes(1);
  });
});
