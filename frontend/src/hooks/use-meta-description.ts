import { useEffect } from 'react';

/**
 * Sets the page's meta description while the calling page is shown. The Go
 * server fills it in for the first load; this keeps it right after in-app
 * navigation too.
 */
export function useMetaDescription(description: string): void {
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);
}
