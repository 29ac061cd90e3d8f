import { useEffect, useState } from 'react';
import { usePlatform, type Article, type NewsSnapshot } from '../platform';

/**
 * The live news list; null until the first snapshot arrives. It starts from
 * the list the platform already has (inlined in the page, or seen before),
 * so the first render is the final layout.
 */
export function useNews(): NewsSnapshot | null {
  const platform = usePlatform();
  const [snapshot, setSnapshot] = useState<NewsSnapshot | null>(
    () => platform.currentNews() ?? null,
  );
  useEffect(() => platform.subscribeNews(setSnapshot), [platform]);
  return snapshot;
}

/**
 * One live article: undefined while loading, null when it does not exist. It
 * starts from what the platform already knows of it, like useNews.
 */
export function useArticle(id: string): Article | null | undefined {
  const platform = usePlatform();
  const [state, setState] = useState(() => ({ id, article: platform.currentArticle(id) }));
  let current = state;
  if (state.id !== id) {
    // Another article: start again from what the platform knows of it (React's
    // "adjusting state when a prop changes"), never from the previous one.
    current = { id, article: platform.currentArticle(id) };
    setState(current);
  }
  useEffect(
    () => platform.subscribeArticle(id, (article) => setState({ id, article })),
    [platform, id],
  );
  return current.article;
}
