import type { NewsSnapshot, Platform } from './types';

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
    subscribeNews(onUpdate) {
      const source = new EventSource('/api/news/stream');
      source.addEventListener('news', (event) => {
        onUpdate(JSON.parse((event as MessageEvent<string>).data) as NewsSnapshot);
      });
      return () => source.close();
    },
    subscribeTicks: (onTick) => alignedTicks(now, onTick),
    now,
    ready() {},
  };
}
