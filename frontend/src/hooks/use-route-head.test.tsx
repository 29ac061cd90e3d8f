import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app';
import { Routes } from '../lib/spec.gen';
import { renderOnFakePlatform, setUpAppTests } from '../test-app';

function renderApp(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <App /> }], {
    initialEntries: [path],
  });
  renderOnFakePlatform(<RouterProvider router={router} />);
  return router;
}

const description = () =>
  document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

describe('the head of each page', () => {
  setUpAppTests();
  beforeEach(() => {
    document.title = '';
  });

  it.for(Object.keys(Routes) as Array<keyof typeof Routes>)(
    '%s takes its title and description from the route table',
    async (path) => {
      const router = renderApp(path);
      await screen.findByRole('contentinfo');
      // The app serves the page rather than sending the visitor home.
      expect(router.state.location.pathname).toBe(path);
      await vi.waitFor(() => expect(document.title).toBe(Routes[path].title));
      expect(description()).toBe(Routes[path].description);
    },
  );

  it('changes the description, not only the title, on in-app navigation', async () => {
    const router = renderApp('/news');
    await vi.waitFor(() => expect(description()).toBe(Routes['/news'].description));
    await router.navigate('/about');
    await vi.waitFor(() => expect(document.title).toBe(Routes['/about'].title));
    expect(description()).toBe(Routes['/about'].description);
  });
});
