// What a push asks the follow page's worker (sw.ts) to show: this site's
// JSON ({title, body, tag, data: {url}}) or Declarative Web Push's shape
// ({web_push: 8030, notification: {title, body, tag, navigate}}), which iOS
// 18.4 shows even without a worker. Only the worker imports this module.

/** A push's JSON, in either shape. */
export interface PushPayload {
  title?: unknown;
  body?: unknown;
  tag?: unknown;
  url?: unknown;
  data?: { url?: unknown };
  web_push?: unknown;
  notification?: { title?: unknown; body?: unknown; tag?: unknown; navigate?: unknown };
}

/** The notification to show. */
export interface PushNotice {
  title: string;
  body: string;
  tag: string;
  url: string;
}

/** The text of value when it is a non-empty string, else fallback. */
const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value !== '' ? value : fallback;

/** Where a notification leads: an address on origin, else the follow page (never another site). */
export function pushTarget(value: unknown, origin: string): string {
  const fallback = new URL('/follow', origin).href;
  try {
    const url = new URL(text(value, '/follow'), origin);
    return url.origin === new URL(origin).origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}

/** The notification payload asks for, its link on origin. */
export function notificationOf(payload: PushPayload, origin: string): PushNotice {
  const declarative =
    payload.web_push === 8030 && typeof payload.notification === 'object' && payload.notification
      ? payload.notification
      : null;
  const n = declarative ?? payload;
  return {
    title: text(n.title, 'RoboHornets 1209'),
    body: text(n.body, ''),
    tag: text(n.tag, ''),
    url: pushTarget(
      declarative ? declarative.navigate : (payload.data?.url ?? payload.url),
      origin,
    ),
  };
}
