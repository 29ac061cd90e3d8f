// A fake of the console's API for its tests: fetch answers from a table of
// "METHOD /admin/api/path" to answers, taken in turn, and records every call.
import { vi } from 'vitest';
import type { Me } from '../../gen/wire.gen';

/** One answer of the fake API: a status and a JSON body (none for 204). */
export interface FakeAnswer {
  status: number;
  body?: unknown;
}

/** A call the fake API received: "METHOD path" (without /admin/api) and its decoded body. */
export interface FakeCall {
  key: string;
  body: unknown;
}

/**
 * Stubs fetch (undo with vi.unstubAllGlobals): each key of routes answers
 * its answers in turn, the last one again and again; any other call is a
 * 404 that the test sees in calls.
 */
export function fakeApi(routes: Record<string, FakeAnswer[]>): FakeCall[] {
  const calls: FakeCall[] = [];
  const served = new Map<string, number>();
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url.replace(/^\/admin\/api/, '')}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answers = routes[key];
    if (!answers)
      return new Response(JSON.stringify({ error: `no fake for ${key}` }), { status: 404 });
    const n = served.get(key) ?? 0;
    served.set(key, n + 1);
    const { status, body } = answers[Math.min(n, answers.length - 1)];
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  });
  return calls;
}

/** What GET /me answers for Ada, signed in as role with her one passkey k1. */
export function ada(role: string): Me {
  return {
    member: {
      id: 'a1',
      name: 'Ada',
      role,
      created: '2026-03-14T09:00:00Z',
      revoked: '0001-01-01T00:00:00Z',
      passkeys: 1,
      suspendedPasskeys: null,
    },
    passkeys: [],
    expires: '2026-03-21T09:00:00Z',
    sessionPasskey: 'k1',
  };
}
