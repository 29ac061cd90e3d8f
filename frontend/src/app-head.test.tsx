import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Routes } from './gen/spec.gen';
import { renderApp, setUpAppTests } from './test-app';

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
      const router = await renderApp(path);
      await screen.findByRole('contentinfo');
      // The app serves the page rather than sending the visitor home.
      expect(router.state.location.pathname).toBe(path);
      await vi.waitFor(() => expect(document.title).toBe(Routes[path].title));
      expect(description()).toBe(Routes[path].description);
    },
  );

  it('changes the description, not only the title, on in-app navigation', async () => {
    const router = await renderApp('/news');
    await vi.waitFor(() => expect(description()).toBe(Routes['/news'].description));
    await router.navigate('/about');
    await vi.waitFor(() => expect(document.title).toBe(Routes['/about'].title));
    expect(description()).toBe(Routes['/about'].description);
  });
});
