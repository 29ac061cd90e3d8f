import { lazy, type ComponentType } from 'react';

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

/**
 * A page loaded on demand. A failed load reaches the route's error
 * boundary as a PageLoadError, which it answers by loading the document
 * again (React keeps a failed import, and Vite a failed style sheet, for
 * the life of the document).
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(() =>
    load().catch((err: unknown) => {
      throw new PageLoadError(err);
    }),
  );
}
