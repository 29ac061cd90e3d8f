import type { ComponentType } from 'react';
import type { createBrowserRouter } from 'react-router';

/**
 * A page's code or style could not be fetched: the visitor went offline,
 * or a new deployment replaced the files the open tab knows.
 */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('the page could not be loaded', { cause });
    this.name = 'PageLoadError';
  }
}

/** A module whose default export is a page. */
type PageModule = { default: ComponentType };

/**
 * Fetches a page's module with load; a failure becomes a PageLoadError,
 * which the route's error element answers by loading the document again
 * (the browser keeps a failed import, and Vite a failed style sheet, for
 * the life of the document).
 */
export function loadPage<M>(load: () => Promise<M>): Promise<M> {
  return load().catch((err: unknown) => {
    throw new PageLoadError(err);
  });
}

/**
 * A route's fields for a page loaded on demand: the router fetches its
 * code (loadPage) before it shows the page, so the page comes whole, with
 * no fallback first and nothing that moves when it arrives.
 */
export function onDemand(load: () => Promise<PageModule>) {
  return {
    lazy: () => loadPage(load).then((module) => ({ Component: module.default })),
  };
}

/** A router of the site's routes. */
type SiteRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Resolves once router has what its first render needs: the code of a
 * page loaded on demand, so the page comes whole rather than after an
 * empty first render (a page that cannot be fetched comes as its notice).
 */
export function routerReady(router: SiteRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) {
      resolve();
      return;
    }
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}
