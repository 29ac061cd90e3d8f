import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import { useScrollRestoration } from './use-scroll-restoration';

let y = 0;
let navigate: NavigateFunction;

function Probe() {
  useScrollRestoration();
  navigate = useNavigate();
  return null;
}

/** The visitor scrolls the page to `to`. */
function scrollPage(to: number) {
  y = to;
  window.dispatchEvent(new Event('scroll'));
}

function go(to: string | number) {
  act(() => {
    if (typeof to === 'number') void navigate(to);
    else void navigate(to);
  });
}

describe('useScrollRestoration', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    y = 0;
    scrollTo = vi.fn((_x: number, top: number) => {
      y = top;
    });
    vi.spyOn(window, 'scrollTo').mockImplementation(scrollTo as unknown as typeof window.scrollTo);
    vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('opens a new page at its top and a page reached with Back or Forward where it was left', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Probe />
      </MemoryRouter>,
    );
    scrollPage(1300);
    go('/about');
    expect(y).toBe(0);
    scrollPage(40);
    go(-1);
    expect(y).toBe(1300);
    go(1);
    expect(y).toBe(40);
    go('/about');
    expect(y).toBe(0);
  });

  it('leaves a link to a fragment to the browser', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Probe />
      </MemoryRouter>,
    );
    scrollPage(500);
    scrollTo.mockClear();
    go('/#main');
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it("turns the browser's own restoration off while the app runs, and back on after", () => {
    window.history.scrollRestoration = 'auto';
    const { unmount } = render(
      <MemoryRouter>
        <Probe />
      </MemoryRouter>,
    );
    expect(window.history.scrollRestoration).toBe('manual');
    unmount();
    expect(window.history.scrollRestoration).toBe('auto');
  });
});
