import { beforeEach, describe, expect, it } from 'vitest';
import type { Conflict, Post } from '../../gen/wire.gen';
import { localIds, writeLocal, type LocalCopy } from './autosave';
import { ApiError, NetworkError } from './public/api';
import { endSession, saveDrafts, type Call } from './sign-out';

const copy = (title: string, content: string, baseVersion = 3): LocalCopy => ({
  fields: { title, date: '2026-02-01T18:00:00Z', content },
  baseVersion,
  at: '2026-02-01T18:05:00Z',
});

const theirs = (title: string, content: string): Post => ({
  id: 'x',
  title,
  date: '2026-02-01T18:00:00Z',
  content,
  version: 4,
  status: 'draft',
  changed: false,
  updatedAt: '2026-02-01T18:04:00Z',
  updatedBy: 'Ana',
});

/** A fake API: answer says what each "METHOD path" does; every call is recorded. */
function fakeCall(answer: (key: string, body: unknown) => unknown) {
  const calls: { key: string; body: unknown }[] = [];
  const call = (async (method: string, path: string, body?: unknown) => {
    const key = `${method} ${path}`;
    calls.push({ key, body });
    const out = answer(key, body);
    if (out instanceof Error) throw out;
    return out;
  }) as Call;
  return { call, calls };
}

const conflict = (post: Post): ApiError => {
  const body: Conflict = { error: 'conflict', theirs: post, yours: post };
  return new ApiError(409, 'conflict', body, null);
};

describe('signing out', () => {
  beforeEach(() => localStorage.clear());

  it('saves what the site takes and names what it does not', async () => {
    writeLocal(localStorage, 'saved', copy('Saved', 'new text'));
    writeLocal(localStorage, 'raced', copy('Raced', 'same text'));
    writeLocal(localStorage, 'clash', copy('Clash', 'mine'));
    writeLocal(localStorage, 'new', copy('', 'a text without a title', 0));
    localStorage.setItem('other-app', 'kept');
    const { call, calls } = fakeCall((key) => {
      switch (key) {
        case 'PUT /posts/saved':
          return theirs('Saved', 'new text');
        case 'PUT /posts/raced': // the editor saved this very text meanwhile
          return conflict(theirs('Raced', 'same text'));
        case 'PUT /posts/clash':
          return conflict(theirs('Clash', 'theirs'));
      }
      return new Error(`unexpected ${key}`);
    });
    expect(await saveDrafts(localStorage, call)).toEqual(['Clash', 'Untitled post']);
    expect(calls.map((c) => c.key)).toEqual([
      'PUT /posts/clash',
      'PUT /posts/raced',
      'PUT /posts/saved',
    ]);
    expect(calls[2].body).toEqual({
      title: 'Saved',
      date: '2026-02-01T18:00:00Z',
      content: 'new text',
      baseVersion: 3,
      at: '0001-01-01T00:00:00Z',
    });

    await endSession(localStorage, fakeCall(() => undefined).call, false);
    expect(localIds(localStorage)).toEqual([]);
    expect(localStorage.getItem('other-app')).toBe('kept');
  });

  it('creates a new post that has a title', async () => {
    writeLocal(localStorage, 'new', copy('Fresh', 'text', 0));
    const { call, calls } = fakeCall(() => theirs('Fresh', 'text'));
    expect(await saveDrafts(localStorage, call)).toEqual([]);
    expect(calls).toEqual([
      {
        key: 'POST /posts',
        body: { title: 'Fresh', date: '2026-02-01T18:00:00Z', content: 'text' },
      },
    ]);
  });

  it.for([
    { name: 'here', everywhere: false, path: 'POST /signout' },
    { name: 'everywhere', everywhere: true, path: 'POST /signout/everywhere' },
  ])('clears the drafts once signed out $name', async ({ everywhere, path }) => {
    writeLocal(localStorage, 'a', copy('A', 'text'));
    const { call, calls } = fakeCall(() => undefined);
    await endSession(localStorage, call, everywhere);
    expect(calls.map((c) => c.key)).toEqual([path]);
    expect(localIds(localStorage)).toEqual([]);
  });

  it('clears them when the session had ended already', async () => {
    writeLocal(localStorage, 'a', copy('A', 'text'));
    const { call } = fakeCall(() => new ApiError(401, 'sign in', undefined, null));
    await endSession(localStorage, call, false);
    expect(localIds(localStorage)).toEqual([]);
  });

  it('keeps them while the site cannot be reached: still signed in', async () => {
    writeLocal(localStorage, 'a', copy('A', 'text'));
    const { call } = fakeCall(() => new NetworkError(null));
    await expect(endSession(localStorage, call, false)).rejects.toThrow('No connection');
    expect(localIds(localStorage)).toEqual(['a']);
  });
});
