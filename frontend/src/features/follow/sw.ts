// The follow page's service worker, built by Vite as /sw.js (vite.config.ts:
// its precache list is written in at build time) and registered by the
// follow page only, for the scope /follow: the kiosk window, /pit, /admin
// and the rest of the site are never under it. It keeps the follow page's
// files and the last event snapshot, so the page opens offline with its
// time; a new version waits until the page says SKIP_WAITING (never on its
// own), so no page mixes two versions; it shows the pushes of the team's
// alerts, in this site's JSON or in Declarative Web Push's shape.
//
// The DOM library's types lack a worker's events; the few used are below.

import { notificationOf, pushTarget, type PushPayload } from './push-payload';

/** The precache list and its version, written in by the build. */
declare const __FOLLOW_PRECACHE__: { version: string; files: string[] };

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const precache = __FOLLOW_PRECACHE__;

/** This version's files; the event snapshot's cache outlives versions. */
const shellCache = `follow-shell-${precache.version}`;
const dataCache = 'follow-data';
/** The page the app opens at, cached under this key. */
const page = '/follow';
/** The snapshot the page reads first (use-follow-event.ts). */
const snapshot = '/api/event';

const precached = new Set(precache.files);

worker.addEventListener('install', (event) => {
  // No skipWaiting: a new version waits for the page's word.
  event.waitUntil(caches.open(shellCache).then((cache) => cache.addAll([page, ...precache.files])));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k.startsWith('follow-shell-') && k !== shellCache)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') {
    void worker.skipWaiting();
  }
});

/** Whether path is the follow page (the worker's scope is /follow; /followers is not it). */
function isFollowPage(path: string): boolean {
  return path === page || path.startsWith(`${page}/`);
}

/** The network's answer, kept in cacheName under key; the kept one when the network fails. */
async function networkFirst(request: Request, cacheName: string, key: string): Promise<Response> {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

/** The precached file, else the network's. */
async function cacheFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request, { cacheName: shellCache });
  return kept ?? fetch(request);
}

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') {
    // Only the follow page; any other page goes to the network untouched.
    if (isFollowPage(url.pathname)) event.respondWith(networkFirst(request, shellCache, page));
    return;
  }
  if (url.pathname === snapshot) {
    event.respondWith(networkFirst(request, dataCache, snapshot));
    return;
  }
  if (precached.has(url.pathname)) event.respondWith(cacheFirst(request));
  // Anything else (the live streams, the push API) passes through.
});

worker.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    payload = { body: event.data?.text() ?? '' };
  }
  const n = notificationOf(payload, worker.location.origin);
  event.waitUntil(
    worker.registration.showNotification(n.title, {
      body: n.body,
      tag: n.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: n.url },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = pushTarget(
    (event.notification.data as { url?: unknown } | null)?.url,
    worker.location.origin,
  );
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : worker.clients.openWindow(url);
    }),
  );
});
