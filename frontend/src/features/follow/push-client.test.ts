import { afterEach, describe, expect, it, vi } from 'vitest';
import { PushApiError, serverPushApi } from './push-client';

describe('serverPushApi', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the subscription’s fields with the choices beside them, as the server takes them', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await serverPushApi.subscribe({
      subscription: { endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } },
      topics: ['queuing', 'results'],
      matchesAhead: 2,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/push/subscribe');
    expect(JSON.parse(init.body as string)).toEqual({
      endpoint: 'https://push.example/1',
      keys: { p256dh: 'p', auth: 'a' },
      topics: ['queuing', 'results'],
      matchesAhead: 2,
    });
  });

  it('turns a refusal into a PushApiError with its status', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"error":"full"}', { status: 429 }));
    await expect(
      serverPushApi.subscribe({ subscription: { endpoint: 'x' }, topics: [], matchesAhead: 0 }),
    ).rejects.toEqual(new PushApiError(429, 'subscribe'));
  });
});
