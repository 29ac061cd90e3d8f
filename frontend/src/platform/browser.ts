import type { Article, NewsSnapshot, Platform } from './types';

/** Follows one server-sent event stream, calling onData with each event's JSON. */
function follow<T>(url: string, event: string, onData: (data: T) => void): () => void {
  const source = new EventSource(url);
  source.addEventListener(event, (e) => onData(JSON.parse((e as MessageEvent<string>).data) as T));
  return () => source.close();
}

/** The tick source every browser page shares: one timer aligned to the second. */
function alignedTicks(now: () => number, onTick: (nowMs: number) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => {
        onTick(now());
        schedule();
      },
      1000 - (now() % 1000),
    );
  };
  schedule();
  return () => clearTimeout(timer);
}

/** The platform of the public website: fetch and server-sent events against serve mode. */
export function browserPlatform(): Platform {
  const now = () => Date.now();
  return {
    kind: 'browser',
    subscribeNews: (onUpdate) => follow<NewsSnapshot>('/api/news/stream', 'news', onUpdate),
    subscribeArticle: (id, onUpdate) =>
      follow<Article | null>(`/api/news/${encodeURIComponent(id)}/stream`, 'article', onUpdate),
    subscribeTicks: (onTick) => alignedTicks(now, onTick),
    now,
    ready() {},
  };
}
