import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Post } from '../../gen/wire.gen';
import { localIds, writeLocal } from './autosave';
import { ada, fakeApi } from './test-api';
import { renderConsoleAt } from './test-router';

const me = ada('editor');

const saved: Post = {
  id: 'build-week',
  title: 'Build week',
  date: '2026-02-01T18:00:00Z',
  content: 'Written offline.',
  version: 4,
  status: 'draft',
  changed: false,
  updatedAt: '2026-02-01T18:04:00Z',
  updatedBy: 'Ada',
};

/** The console at /admin/passkeys, signed in as Ada on a fake API. */
async function renderConsole() {
  const calls = fakeApi({
    'GET /me': [{ status: 200, body: me }],
    'PUT /posts/build-week': [{ status: 200, body: saved }],
    'POST /signout': [{ status: 204 }],
    'POST /signout/everywhere': [{ status: 204 }],
  });
  await renderConsoleAt('/admin/passkeys');
  return calls;
}

// jsdom cannot leave the page: signing out's last step is only recorded.
const leave = vi.fn();
beforeEach(() => {
  localStorage.clear();
  writeLocal(localStorage, 'build-week', {
    fields: { title: 'Build week', date: saved.date, content: 'Written offline.' },
    baseVersion: 3,
    at: '2026-02-01T18:03:00Z',
  });
  vi.stubGlobal('location', { ...window.location, assign: leave });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave.mockReset();
});

describe('signing out of the console', () => {
  it.for([
    { name: 'Sign out', path: 'POST /signout' },
    { name: 'Sign out everywhere', path: 'POST /signout/everywhere' },
  ])('($name) saves the drafts, then leaves none on the phone', async ({ name, path }) => {
    const calls = await renderConsole();
    fireEvent.click(await screen.findByRole('button', { name }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/admin/signin'));
    expect(calls.map((c) => c.key)).toEqual(['GET /me', 'PUT /posts/build-week', path]);
    expect(localIds(localStorage)).toEqual([]);
  });
});
