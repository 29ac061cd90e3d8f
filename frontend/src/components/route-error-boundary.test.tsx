import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadDocument } from '../lib/reload';
import { lazyPage } from './lazy-page';
import { RouteErrorBoundary } from './route-error-boundary';

vi.mock('../lib/reload', () => ({ reloadDocument: vi.fn() }));

/** The server's answer to /healthz: up, or unreachable. */
let serverUp = true;

async function renderInBoundary(page: React.ReactNode) {
  await act(async () => {
    render(
      <RouteErrorBoundary>
        <Suspense fallback={<p>Loading…</p>}>{page}</Suspense>
      </RouteErrorBoundary>,
    );
  });
}

/** Lets fetch and the timers of the boundary run. */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('RouteErrorBoundary', () => {
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
    await renderInBoundary(<Flaky />);
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
    const Page = lazyPage(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    await renderInBoundary(<Page />);
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
