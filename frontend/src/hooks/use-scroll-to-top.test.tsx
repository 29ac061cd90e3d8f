import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import { useScrollToTop } from './use-scroll-to-top';

let y = 0;
let navigate: NavigateFunction;

function Probe() {
  useScrollToTop();
  navigate = useNavigate();
  return null;
}

function renderProbe() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Probe />
    </MemoryRouter>,
  );
}

function go(to: string | number) {
  act(() => {
    if (typeof to === 'number') void navigate(to);
    else void navigate(to);
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
    vi.restoreAllMocks();
  });

  it('puts every page at its top, whether reached by a link, Back or Forward', () => {
    renderProbe();
    y = 1300;
    go('/about');
    expect(y).toBe(0);
    y = 40;
    go(-1);
    expect(y).toBe(0);
    y = 900;
    go(1);
    expect(y).toBe(0);
  });

  it('leaves a link within the page to the browser', () => {
    renderProbe();
    y = 500;
    go('/#main');
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
