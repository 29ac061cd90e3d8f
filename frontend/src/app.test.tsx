import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './app';
import { Routes } from './gen/spec.gen';
import { renderApp, setUpAppTests } from './test-app';

/** The page routes in the frame (root → frame → the pages' error element → pages). */
function pageRoutes(): RouteObject[] {
  const pages = routes[0]?.children?.[0]?.children?.[0]?.children;
  if (!pages) throw new Error('app.tsx: no page routes in the frame');
  return pages;
}

const onDemand = ['/reefscape', '/crescendo', '/rebuilt', '/whattimeisit', '/pit', '/follow'];

describe('the route table', () => {
  setUpAppTests();

  it('is the generated one, with a news article and a catch-all', () => {
    expect(pageRoutes().map((route) => route.path)).toEqual([
      ...Object.keys(Routes),
      '/news/:id',
      '*',
    ]);
  });

  it('loads the season pages, the countdown, the pit display and the follow page on demand', () => {
    const lazy = pageRoutes()
      .filter((route) => route.lazy)
      .map((route) => route.path);
    expect(lazy).toEqual(onDemand);
  });

  it.for(onDemand.flatMap((path) => [path, `${path.toUpperCase()}/`]))(
    'renders %s whole in its first render once the router is ready',
    async (path) => {
      await renderApp(path);
      // The page is there at once, in the first render.
      expect(document.querySelector('main')?.childElementCount).toBeGreaterThan(0);
    },
  );

  // The server preloads the banner's first picture on the pages whose route
  // says banner: exactly those open with the slideshow.
  it.for(Object.entries(Routes))(
    'renders the banner on %s as its route says',
    async ([path, route]) => {
      await renderApp(path);
      const picture = document.querySelector('.carousel__slide img');
      expect(picture !== null).toBe(route.banner);
    },
  );

  it.for(['/about', '/no-such-page', '/reefscape'])(
    'is ready at once for %s only when its page is in the first load',
    (path) => {
      const router = createMemoryRouter(routes, { initialEntries: [path] });
      expect(router.state.initialized).toBe(path !== '/reefscape');
      router.dispose();
    },
  );
});
