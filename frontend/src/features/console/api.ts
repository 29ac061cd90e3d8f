// The console's calls of its API: any 401 (no session, or it ended) sends
// the person to sign in, back here afterwards.
import { CodeVerify, type Photo, type Refusal } from '../../gen/wire.gen';
import { ApiError, errorSentence, NetworkError, request } from './public/api';
import { signInHref } from './public/next';

/** Sends the person to sign in, coming back to this page. */
export function goSignIn(): void {
  window.location.assign(signInHref(window.location.pathname + window.location.search));
}

/** Calls the API as request does; a 401 goes to sign-in (and still rejects). */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options?: { keepalive?: boolean },
): Promise<T> {
  try {
    return await request<T>(method, path, body, options);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) goSignIn();
    throw err;
  }
}

/**
 * Whether err refuses an action until the member uses their passkey again
 * (a 403 whose Refusal.code is CodeVerify); the same request may follow.
 */
export function needsVerification(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 403) return false;
  const body = err.body as Partial<Refusal> | undefined;
  return body?.code === CodeVerify;
}

/** Says what went wrong in a sentence. */
export function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'Something went wrong.';
}

/**
 * Uploads a photo (POST /admin/api/photos, field "photo"), telling
 * onProgress the share sent so far (0..1); resolves with the stored photo.
 * XMLHttpRequest, because fetch cannot tell how much of an upload is sent.
 */
export function uploadPhoto(file: File, onProgress: (share: number) => void): Promise<Photo> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/admin/api/photos');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new NetworkError(null));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as Photo);
        return;
      }
      if (xhr.status === 401) goSignIn();
      const header = xhr.getResponseHeader('Retry-After');
      const retryAfter = header && /^\d+$/.test(header) ? Number(header) : null;
      reject(
        new ApiError(xhr.status, errorSentence(xhr.status, body, retryAfter), body, retryAfter),
      );
    };
    const form = new FormData();
    form.append('photo', file);
    xhr.send(form);
  });
}
