import { useEffect } from 'react';
import { Routes } from '../gen/spec.gen';

/** A page of the route table (internal/spec/routes.go, generated into spec.gen.ts). */
export type RoutePath = keyof typeof Routes;

/**
 * Sets the document title and the meta description while the calling page is
 * shown. The Go server fills both in for the first load; this keeps them
 * right after in-app navigation too.
 */
export function useHead(title: string, description: string): void {
  useEffect(() => {
    document.title = title;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description]);
}

/** Sets the title and description of the page at path, from the route table the server uses too. */
export function useRouteHead(path: RoutePath): void {
  const { title, description } = Routes[path];
  useHead(title, description);
}
