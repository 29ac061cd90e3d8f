import { clockOffset, type TimeSample } from '../lib/clock-offset';
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

/** Round trips per clock measurement, and how often the clock is measured again. */
const timeSamples = 4;
const remeasureMs = 10 * 60 * 1000;

/** Measures the server clock's offset from this device's, from a few round trips. */
async function measureOffset(): Promise<number> {
  const samples: TimeSample[] = [];
  for (let i = 0; i < timeSamples; i++) {
    const sentMs = Date.now();
    const res = await fetch('/api/time', { cache: 'no-store' });
    const receivedMs = Date.now();
    if (!res.ok) continue;
    const { now } = (await res.json()) as { now: number };
    samples.push({ sentMs, serverMs: now, receivedMs });
  }
  return clockOffset(samples);
}

/**
 * The platform of the public website: fetch and server-sent events against
 * serve mode. Its clock follows the server's, so a TV or laptop with a wrong
 * clock still celebrates at the server's 12:09:00.
 */
export function browserPlatform(): Platform {
  let offset = 0;
  const sync = () =>
    measureOffset().then(
      (ms) => (offset = ms),
      () => {}, // offline: keep the last offset, try again later
    );
  void sync();
  setInterval(() => void sync(), remeasureMs);
  const now = () => Date.now() + offset;
  return {
    kind: 'browser',
    kiosk: false,
    subscribeNews: (onUpdate) => follow<NewsSnapshot>('/api/news/stream', 'news', onUpdate),
    subscribeArticle: (id, onUpdate) =>
      follow<Article | null>(`/api/news/${encodeURIComponent(id)}/stream`, 'article', onUpdate),
    subscribeTicks: (onTick) => alignedTicks(now, onTick),
    now,
    ready() {},
    subscribeKiosk: () => () => {},
    interacted() {},
  };
}
