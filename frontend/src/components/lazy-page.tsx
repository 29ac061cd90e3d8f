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

/** A page loaded on demand, whose code can be fetched ahead of its first render. */
export type LazyPage = ComponentType & {
  /** Fetches the page's code (once); rejects with a PageLoadError when it cannot. */
  preload(): Promise<void>;
};

/**
 * A page loaded on demand. A failed load reaches the route's error
 * boundary as a PageLoadError, which it answers by loading the document
 * again (React keeps a failed import, and Vite a failed style sheet, for
 * the life of the document). Once its code is here (preload), the page
 * renders at once, without suspending: no fallback first, nothing that
 * moves when the page arrives.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const fetchPage = () =>
    (loading ??= load().then(
      (module) => (loaded = module.default),
      (err: unknown) => {
        throw new PageLoadError(err);
      },
    ));
  const Suspending = lazy(() => fetchPage().then((page) => ({ default: page })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Suspending />;
  }
  Page.preload = () => fetchPage().then(() => undefined);
  return Page;
}
