import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpAppTests } from './test-app';

// The visitor went offline: the code of the crescendo page and of the
// notice bar cannot be fetched; the rest of the site is in the first load.
// (Vitest says on stderr that each of these mocks failed, as they should.)
vi.mock('./features/seasons/crescendo', () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
);
vi.mock('./features/pit/notice-banner', () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
);

describe('the site, when a part of it cannot be fetched', () => {
  setUpAppTests();
  beforeEach(() => {
    // What fails is said in the console; these failures are expected.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it("shows the page's notice in the frame, and the next page as usual", async () => {
    const router = await renderApp('/crescendo');
    const notice = screen.getByRole('alert');
    expect(notice).toHaveTextContent('This page could not be loaded');
    expect(screen.getByRole('main')).toContainElement(notice);
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();

    await act(async () => {
      await router.navigate('/about');
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main').childElementCount).toBeGreaterThan(0);
  });

  it('shows a page whole without the notice bar whose code did not come', async () => {
    await renderApp('/about');
    await act(async () => {
      await vi.dynamicImportSettled();
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(console.warn).toHaveBeenCalledWith(
      'a part of the frame failed; the page goes on without it',
      expect.anything(),
    );
  });
});
