// The one boundary between the Notify-me control and the browser's push
// machinery (PushManager, Notification) and the server's push API. The
// state machine (notify.ts) takes these interfaces; tests fake them, the
// end-to-end test replaces PushManager's subscription with one a push
// service stand-in made.

import { workerScope, workerUrl } from './use-service-worker';

/** A push subscription as the state machine needs it (the browser's PushSubscription has these). */
export interface PushSubscriptionLike {
  readonly endpoint: string;
  readonly options?: { readonly applicationServerKey: ArrayBuffer | null };
  toJSON(): PushSubscriptionJSON;
  unsubscribe(): Promise<boolean>;
}

/** What the browser can do about push, as the control needs to know it. */
export interface PushSupport {
  /** The browser has service workers, PushManager and Notification. */
  push: boolean;
  /** The device is an iPhone or iPad (iOS offers push only to a Home Screen app). */
  ios: boolean;
  /** The page runs as an installed app (display-mode standalone). */
  standalone: boolean;
}

/** The browser's side: permission and the subscription of the follow page's worker. */
export interface PushBrowser {
  support(): PushSupport;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  /** The worker's subscription now, or null. */
  current(): Promise<PushSubscriptionLike | null>;
  /** Subscribes with the server's public key (raw bytes). */
  subscribe(applicationServerKey: Uint8Array): Promise<PushSubscriptionLike>;
}

/** What the page sends the server with a subscription. */
export interface SubscribeRequest {
  /** The browser's subscription as PushSubscription.toJSON() gives it. */
  subscription: PushSubscriptionJSON;
  topics: string[];
  matchesAhead: number;
}

/** The server's push API (GET /api/push/key, POST /api/push/subscribe, POST /api/push/unsubscribe). */
export interface PushApi {
  /** The server's VAPID public key, URL-safe base64. */
  key(): Promise<string>;
  subscribe(request: SubscribeRequest): Promise<void>;
  unsubscribe(endpoint: string): Promise<void>;
}

/** An answer of the push API that is not what it should be: its status (0: no answer at all). */
export class PushApiError extends Error {
  readonly status: number;
  constructor(status: number, what: string) {
    super(`push: ${what}: ${status === 0 ? 'no answer' : `status ${status}`}`);
    this.name = 'PushApiError';
    this.status = status;
  }
}

/** Sends one request of the push API; a network failure is status 0. */
async function call(what: string, url: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new PushApiError(0, what);
  }
  if (!res.ok) throw new PushApiError(res.status, what);
  return res;
}

/** The server's push API over fetch. */
export const serverPushApi: PushApi = {
  async key() {
    const res = await call('key', '/api/push/key', { cache: 'no-store' });
    const body = (await res.json()) as { publicKey?: unknown };
    if (typeof body.publicKey !== 'string' || body.publicKey === '') {
      throw new PushApiError(res.status, 'key has no publicKey');
    }
    return body.publicKey;
  },
  async subscribe({ subscription, topics, matchesAhead }) {
    // The server takes the subscription's fields with the choices beside them.
    await call('subscribe', '/api/push/subscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...subscription, topics, matchesAhead }),
    });
  },
  async unsubscribe(endpoint) {
    await call('unsubscribe', '/api/push/unsubscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpoint }),
    });
  },
};

/** Whether the page runs on an iPhone or iPad (an iPad says it is a Mac with a touch screen). */
function isIOS(): boolean {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

/** The follow page's worker registration now, or null before the page registered it. */
function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration(workerScope);
}

/** The follow page's worker once it is active: registered here if the page has not yet. */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(workerUrl, { scope: workerScope });
  return navigator.serviceWorker.ready;
}

/** The browser's push machinery: PushManager of the follow page's worker, and Notification. */
export const browserPush: PushBrowser = {
  support() {
    const standalone =
      window.matchMedia?.('(display-mode: standalone)').matches === true ||
      (navigator as { standalone?: boolean }).standalone === true;
    return {
      push: 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window,
      ios: isIOS(),
      standalone,
    };
  },
  permission: () => Notification.permission,
  requestPermission: () => Notification.requestPermission(),
  async current() {
    // No worker yet: no subscription either.
    return (await registration())?.pushManager.getSubscription() ?? null;
  },
  async subscribe(applicationServerKey) {
    const reg = await activeRegistration();
    return reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: applicationServerKey as BufferSource,
    });
  },
};
