import { clockOffset, type TimeSample } from '../lib/clock-offset';
import type { Article, EventStatus, NewsSnapshot, Platform } from './types';

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
  // One stream per resource for every view of the page: going back to a list
  // or an article shows its latest value at once while the stream reopens.
  const articles = new Map<string, (onData: (article: Article | null) => void) => () => void>();
  const article = (id: string) => {
    let subscribe = articles.get(id);
    if (!subscribe) {
      subscribe = sharedStream<Article | null>(
        `/api/news/${encodeURIComponent(id)}/stream`,
        'article',
      );
      articles.set(id, subscribe);
    }
    return subscribe;
  };
  return {
    kind: 'browser',
    kiosk: false,
    siteUrl: null,
    subscribeNews: sharedStream<NewsSnapshot>('/api/news/stream', 'news'),
    subscribeArticle: (id, onUpdate) => article(id)(onUpdate),
    subscribeTicks: (onTick) => alignedTicks(now, onTick),
    now,
    ready() {},
    subscribeKiosk: () => () => {},
    interacted() {},
    subscribeEvent: sharedStream<EventStatus>('/api/event/stream', 'event'),
  };
}

/** The first and the longest wait before opening again a stream the server closed. */
const reopenMinMs = 2000;
const reopenMaxMs = 60_000;

/**
 * Follows one server-sent event stream, calling each subscriber with each
 * event's JSON, for every subscriber of the page at once: one EventSource, opened by the first subscriber and closed after the
 * last. A new subscriber gets the latest value at once. A lost connection keeps
 * the latest value; the browser reconnects by itself, and a stream the server
 * refused (EventSource gives up on those) is opened again after a growing wait.
 */
function sharedStream<T>(url: string, event: string): (onData: (data: T) => void) => () => void {
  const listeners = new Set<(data: T) => void>();
  let latest: { data: T } | undefined;
  let source: EventSource | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  let waitMs = reopenMinMs;
  const open = () => {
    reopen = undefined;
    const es = new EventSource(url);
    source = es;
    es.addEventListener(event, (e) => {
      let data: T;
      try {
        data = JSON.parse((e as MessageEvent<string>).data) as T;
      } catch {
        return; // a broken message: keep the latest good value
      }
      waitMs = reopenMinMs;
      latest = { data };
      listeners.forEach((onData) => onData(data));
    });
    es.addEventListener('error', () => {
      if (es.readyState !== EventSource.CLOSED) return;
      es.close();
      source = undefined;
      reopen = setTimeout(open, waitMs);
      waitMs = Math.min(waitMs * 2, reopenMaxMs);
    });
  };
  return (onData) => {
    listeners.add(onData);
    if (latest) onData(latest.data);
    if (!source && reopen === undefined) open();
    return () => {
      listeners.delete(onData);
      if (listeners.size > 0) return;
      clearTimeout(reopen);
      reopen = undefined;
      source?.close();
      source = undefined;
    };
  };
}
