import { cleanup, screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Platform } from '../../../platform';
import { ada, fakeApi, type FakeAnswer } from '../test-api';

/**
 * The signed-in routes whose code router fetched (a lazy route gets its
 * element once its module is in; the catch-all has its own): a module fetched without a session is
 * a file the server refuses (401), and one the desktop window must never
 * ask for.
 */
function fetched(router: { routes: readonly RouteObject[] }): string[] {
  const walk = (routes: readonly RouteObject[], inside: boolean): string[] =>
    routes.flatMap((route) => {
      const signedIn = inside || route.id === 'console';
      const own =
        signedIn && route.element && route.path !== '*' ? [route.path ?? route.id ?? ''] : [];
      return [...own, ...walk(route.children ?? [], signedIn)];
    });
  return walk(router.routes, false);
}

/** Opens path (under /admin) on platform with the API answering me; returns the router and the API's calls. */
async function open(path: string, me: FakeAnswer, platform?: Partial<Platform>) {
  const calls = fakeApi({
    'GET /me': [me],
    'GET /posts?q=': [{ status: 200, body: [] }],
    'GET /members': [{ status: 200, body: [] }],
    'GET /invitations': [{ status: 200, body: [] }],
  });
  // A fresh document: the console's modules anew, with what they know.
  const { renderConsoleAt } = await import('../test-router');
  const router = await renderConsoleAt(path, platform);
  return { router, calls };
}

beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the console routes', () => {
  it('send to sign-in, coming back afterwards, without fetching any console code', async () => {
    const { router, calls } = await open('/admin/members?x=1', {
      status: 401,
      body: { error: 'sign in' },
    });
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/admin/signin?next=%2Fadmin%2Fmembers%3Fx%3D1',
    );
    await screen.findByRole('button', { name: 'Sign in with a passkey' });
    expect(calls.map((c) => c.key)).toEqual(['GET /me']);
    expect(fetched(router)).toEqual([]);
  });

  it('send an editor from the members to the posts without asking the API for the members', async () => {
    const { router, calls } = await open('/admin/members', { status: 200, body: ada('editor') });
    expect(router.state.location.pathname).toBe('/admin');
    await screen.findByRole('heading', { name: 'Posts' });
    expect(calls.map((c) => c.key)).not.toContain('GET /members');
    expect(calls.map((c) => c.key)).not.toContain('GET /invitations');
  });

  it('open the members for an admin, asking who is signed in once', async () => {
    const { router, calls } = await open('/admin/members', {
      status: 200,
      body: ada('admin'),
    });
    await screen.findByRole('heading', { name: 'Members' });
    expect(calls.map((c) => c.key).sort()).toEqual(['GET /invitations', 'GET /me', 'GET /members']);
    expect(fetched(router)).toEqual(['console', 'members']);
  });

  it('never fetch the console code in the desktop window, which has no console', async () => {
    const { router } = await open(
      '/admin/members',
      { status: 404, body: { error: 'this server has no console' } },
      { kind: 'desktop', siteUrl: 'https://robohornets.example/' },
    );
    await screen.findByText(/open https:\/\/robohornets\.example\/admin on a phone/);
    expect(fetched(router)).toEqual([]);
  });
});
