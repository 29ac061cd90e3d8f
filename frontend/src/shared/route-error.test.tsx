import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadDocument } from './reload';
import { onDemand, routerReady } from './page-load';
import { RouteError } from './route-error';

vi.mock('./reload', () => ({ reloadDocument: vi.fn() }));

/** The server's answer to /healthz: up, or unreachable. */
let serverUp = true;

/** Renders page, with the route error element, at / (beside the other routes); returns the router. */
async function renderPage(
  page: Pick<RouteObject, 'Component' | 'lazy'>,
  others: RouteObject[] = [],
) {
  const router = createMemoryRouter([
    { path: '/', errorElement: <RouteError />, ...page },
    ...others,
  ]);
  await routerReady(router);
  await act(async () => {
    render(<RouterProvider router={router} />);
  });
  return router;
}

/** Lets fetch and the timers of the boundary run. */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Whether Flaky fails to render, as it does at the start of each test. */
let flakyBroken = true;

/** A page that fails to render while flakyBroken. */
function Flaky() {
  if (flakyBroken) throw new Error('render failed');
  return <h1>Fine now</h1>;
}

describe('RouteError', () => {
  beforeEach(() => {
    flakyBroken = true;
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

  it('renders a page that failed to render again when asked', async () => {
    await renderPage({ Component: Flaky });
    expect(screen.getByRole('alert')).toHaveTextContent('This page hit a snag');

    fireEvent.click(screen.getByRole('button', { name: 'Try again now' }));
    expect(screen.getByRole('alert')).toBeInTheDocument();

    flakyBroken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again now' }));
    await settle();
    expect(screen.getByRole('heading', { name: 'Fine now' })).toBeInTheDocument();
    expect(reloadDocument).not.toHaveBeenCalled();
  });

  it('renders a page that failed to render again by itself after 10 s', async () => {
    await renderPage({ Component: Flaky });
    flakyBroken = false;
    await settle(9_900);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await settle(100);
    expect(screen.getByRole('heading', { name: 'Fine now' })).toBeInTheDocument();
    expect(reloadDocument).not.toHaveBeenCalled();
  });

  it('lets a navigation under way go on rather than try again over it', async () => {
    function Broken(): never {
      throw new Error('render failed');
    }
    // A page whose code takes 15 s to come: the navigation to it, from 5 s on, is under way at the 10 s try.
    const slow = onDemand(
      () =>
        new Promise((resolve) => {
          setTimeout(() => resolve({ default: () => <h1>Slow page</h1> }), 15_000);
        }),
    );
    const router = await renderPage({ Component: Broken }, [{ path: '/slow', ...slow }]);
    await settle(5_000);
    act(() => {
      void router.navigate('/slow');
    });
    await settle(6_000);
    expect(router.state.navigation.state).toBe('loading');
    await settle(10_000);
    expect(screen.getByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
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
