import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useScrollToTop } from './use-scroll-to-top';

let y = 0;
let router: ReturnType<typeof createMemoryRouter>;

function Probe() {
  useScrollToTop();
  return null;
}

function renderProbe() {
  router = createMemoryRouter([{ path: '*', element: <Probe /> }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

async function go(to: string | number) {
  await act(async () => {
    if (typeof to === 'number') await router.navigate(to);
    else await router.navigate(to);
  });
}

describe('useScrollToTop', () => {
  beforeEach(() => {
    y = 0;
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, top: number) => {
      y = top;
    }) as typeof window.scrollTo);
  });
  afterEach(() => {
    cleanup();
    router.dispose();
    vi.restoreAllMocks();
  });

  it('puts every page at its top, whether reached by a link, Back or Forward', async () => {
    renderProbe();
    y = 1300;
    await go('/about');
    expect(y).toBe(0);
    y = 40;
    await go(-1);
    expect(y).toBe(0);
    y = 900;
    await go(1);
    expect(y).toBe(0);
  });

  it('leaves a link within the page to the browser', async () => {
    renderProbe();
    y = 500;
    await go('/#main');
    expect(y).toBe(500);
  });

  it("turns the browser's own restoration off while the app runs, and back on after", () => {
    window.history.scrollRestoration = 'auto';
    const { unmount } = renderProbe();
    expect(window.history.scrollRestoration).toBe('manual');
    unmount();
    expect(window.history.scrollRestoration).toBe('auto');
  });
});
