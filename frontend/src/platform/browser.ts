import { clockOffset, type TimeSample } from './clock-offset';
import type { Article, EventStatus, NewsSnapshot, Notice, Platform } from './types';

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
  // The page's first data comes inlined in it, so its first render is final.
  const news = sharedStream<NewsSnapshot>(
    '/api/news/stream',
    'news',
    inlined('initial-news', isNewsSnapshot),
  );
  const articles = new Map<string, Stream<Article | null>>();
  const article = (id: string, initial?: Article) => {
    let stream = articles.get(id);
    if (!stream) {
      stream = sharedStream<Article | null>(
        `/api/news/${encodeURIComponent(id)}/stream`,
        'article',
        initial,
      );
      articles.set(id, stream);
    }
    return stream;
  };
  const initialArticle = inlined('initial-article', isArticle);
  if (initialArticle) article(initialArticle.id, initialArticle);
  const event = sharedStream<EventStatus>(
    '/api/event/stream',
    'event',
    inlined('initial-event', isEventStatus),
  );
  const notice = sharedStream<Notice>('/api/notice/stream', 'notice');
  return {
    kind: 'browser',
    kiosk: false,
    siteUrl: null,
    subscribeNews: news.subscribe,
    subscribeArticle: (id, onUpdate) => article(id).subscribe(onUpdate),
    currentNews: news.current,
    // An article the page has not followed yet is in the news list, when that is known.
    currentArticle(id) {
      const followed = articles.get(id)?.current();
      return followed !== undefined ? followed : news.current()?.articles?.find((a) => a.id === id);
    },
    subscribeTicks: (onTick) => alignedTicks(now, onTick),
    now,
    ready() {},
    subscribeKiosk: () => () => {},
    interacted() {},
    currentEvent: event.current,
    subscribeEvent: event.subscribe,
    subscribeNotice: notice.subscribe,
  };
}

/**
 * The JSON the server put in the page for its first render, in
 * <script type="application/json" id="…"> in the head (internal/server/pages.go):
 * exactly what the API would answer. Undefined when the page has none, or
 * none that reads as valid; the live stream then brings the data.
 */
function inlined<T>(id: string, valid: (data: unknown) => data is T): T | undefined {
  const script = document.head.querySelector(`script#${id}[type="application/json"]`);
  if (!script?.textContent) return undefined;
  try {
    const data: unknown = JSON.parse(script.textContent);
    return valid(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Reports whether data is a JSON object. */
function isRecord(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null;
}

/** Reports whether data has an article's fields. */
function isArticle(data: unknown): data is Article {
  return (
    isRecord(data) &&
    ['id', 'title', 'date', 'content', 'html', 'preview'].every(
      (key) => typeof data[key] === 'string',
    )
  );
}

/** Reports whether data has a news list's fields. */
function isNewsSnapshot(data: unknown): data is NewsSnapshot {
  return (
    isRecord(data) &&
    Array.isArray(data.articles) &&
    data.articles.every(isArticle) &&
    typeof data.asOf === 'string' &&
    typeof data.live === 'boolean'
  );
}

/** Reports whether data has an event status's fields (what the pages read first of it). */
export function isEventStatus(data: unknown): data is EventStatus {
  return (
    isRecord(data) &&
    typeof data.configured === 'boolean' &&
    typeof data.message === 'string' &&
    typeof data.team === 'number' &&
    typeof data.eventKey === 'string' &&
    typeof data.phase === 'string' &&
    typeof data.asOf === 'string' &&
    typeof data.stale === 'boolean' &&
    isRecord(data.nexus) &&
    isRecord(data.tba)
  );
}

/** The first and the longest wait before opening again a stream the server closed. */
const reopenMinMs = 2000;
const reopenMaxMs = 60_000;

/** One server-sent event stream, shared by every view of the page. */
interface Stream<T> {
  /**
   * Calls onData with the latest event's value at once (if an event came)
   * and with each event's; returns the unsubscribe. The initial value is
   * current's only: a view starts from it, and a subscriber can tell the
   * live data from the page's copy.
   */
  subscribe(onData: (data: T) => void): () => void;
  /** The latest value: the last event's, else the initial one; undefined before either. */
  current(): T | undefined;
}

/**
 * Follows one server-sent event stream, calling each subscriber with each
 * event's JSON, for every subscriber of the page at once: one EventSource,
 * opened by the first subscriber and closed after the last. Its current
 * value is initial (the data inlined in the page) until the first event; a
 * new subscriber gets the latest event's value at once. A lost connection keeps the latest value; the
 * browser reconnects by itself, and a stream the server refused (EventSource
 * gives up on those) is opened again after a growing wait.
 */
function sharedStream<T>(url: string, event: string, initial?: T): Stream<T> {
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
  return {
    subscribe(onData) {
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
    },
    current: () => (latest ? latest.data : initial),
  };
}
