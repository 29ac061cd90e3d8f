// The console's HTTP API (/admin/api/…): JSON both ways, errors as
// {"error": "a sentence"}. Shared by the public pages and the console.

/** An answer of the API other than 2xx: its status, its sentence and its body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The decoded JSON body (a Conflict on a 409 save, say); undefined when none. */
    readonly body: unknown,
    /** Seconds the server asks to wait (Retry-After of a 429); null when it does not say. */
    readonly retryAfter: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Thrown when the request never got an answer: offline, or the server is down. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('No connection to the site.', { cause });
    this.name = 'NetworkError';
  }
}

/** Says a refused answer in a sentence: the server's own, else one for its status. */
export function errorSentence(status: number, body: unknown, retryAfter: number | null): string {
  if (status === 429) {
    const wait = retryAfter ? ` in ${retryAfter} s` : ' in a minute';
    return `Too many attempts from here: try again${wait}.`;
  }
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
    return body.error;
  }
  return `The site answered ${status}.`;
}

/**
 * Calls the API: method on /admin/api + path with body as JSON (or a
 * FormData as is); resolves with the decoded answer (undefined when empty).
 * keepalive lets the request finish while the page goes away.
 */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  { keepalive = false }: { keepalive?: boolean } = {},
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', keepalive };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch('/admin/api' + path, init);
  } catch (err) {
    throw new NetworkError(err);
  }
  const text = await res.text().catch(() => '');
  let decoded: unknown;
  try {
    decoded = text ? JSON.parse(text) : undefined;
  } catch {
    decoded = undefined;
  }
  if (!res.ok) {
    const header = res.headers.get('Retry-After');
    const retryAfter = header && /^\d+$/.test(header) ? Number(header) : null;
    throw new ApiError(
      res.status,
      errorSentence(res.status, decoded, retryAfter),
      decoded,
      retryAfter,
    );
  }
  return decoded as T;
}
