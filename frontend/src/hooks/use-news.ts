import { useEffect, useState } from 'react';
import { usePlatform, type Article, type NewsSnapshot } from '../platform';

/** The live news list; null until the first snapshot arrives. */
export function useNews(): NewsSnapshot | null {
  const platform = usePlatform();
  const [snapshot, setSnapshot] = useState<NewsSnapshot | null>(null);
  useEffect(() => platform.subscribeNews(setSnapshot), [platform]);
  return snapshot;
}

/** One live article: undefined while loading, null when it does not exist. */
export function useArticle(id: string): Article | null | undefined {
  const platform = usePlatform();
  const [state, setState] = useState<{ id: string; article: Article | null } | undefined>();
  useEffect(
    () => platform.subscribeArticle(id, (article) => setState({ id, article })),
    [platform, id],
  );
  // A state left over from the previous id is not this article's.
  return state?.id === id ? state.article : undefined;
}
