import { beforeEach, describe, expect, it } from 'vitest';
import type { Conflict, Post } from '../../gen/wire.gen';
import {
  decideOnOpen,
  isConflict,
  localIds,
  localKey,
  readLocal,
  removeLocal,
  sameFields,
  saveStateLabel,
  settleConflict,
  writeLocal,
  type LocalCopy,
} from './autosave';

const post: Post = {
  id: 'build-week',
  title: 'Build week',
  date: '2026-02-01T18:00:00Z',
  content: 'We built.',
  version: 3,
  status: 'draft',
  changed: false,
  updatedAt: '2026-02-01T18:00:00Z',
  updatedBy: 'Ana',
};

const copy = (over: Partial<LocalCopy['fields']> = {}, baseVersion = 3): LocalCopy => ({
  fields: { title: post.title, date: post.date, content: post.content, ...over },
  baseVersion,
  at: '2026-02-01T18:05:00Z',
});

describe('the local copy', () => {
  beforeEach(() => localStorage.clear());

  it('is kept and read back by post', () => {
    expect(writeLocal(localStorage, 'build-week', copy({ content: 'more' }))).toBe(true);
    expect(readLocal(localStorage, 'build-week')?.fields.content).toBe('more');
    expect(readLocal(localStorage, 'other')).toBeNull();
    expect(localStorage.getItem(localKey('build-week'))).toContain('"baseVersion":3');
  });

  it('lists the posts with a copy, the new one too', () => {
    writeLocal(localStorage, 'b', copy());
    writeLocal(localStorage, 'new', copy());
    localStorage.setItem('something-else', '1');
    expect(localIds(localStorage)).toEqual(['b', 'new']);
    removeLocal(localStorage, 'b');
    expect(localIds(localStorage)).toEqual(['new']);
  });

  it('ignores what is not a copy', () => {
    localStorage.setItem(localKey('x'), '{"fields":{"title":1}}');
    localStorage.setItem(localKey('y'), 'not json');
    expect(readLocal(localStorage, 'x')).toBeNull();
    expect(readLocal(localStorage, 'y')).toBeNull();
  });

  it('says false when the device refuses to keep it', () => {
    const full = {
      setItem() {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(writeLocal(full, 'a', copy())).toBe(false);
  });
});

describe('sameFields', () => {
  it('compares the date as a moment, not as text', () => {
    expect(sameFields(copy({ date: '2026-02-01T18:00:00.000Z' }).fields, post)).toBe(true);
    expect(sameFields(copy({ date: '2026-02-01T19:00:00+01:00' }).fields, post)).toBe(true);
    expect(sameFields(copy({ date: '2026-02-01T18:00:01Z' }).fields, post)).toBe(false);
    expect(sameFields(copy({ title: 'Build week!' }).fields, post)).toBe(false);
  });
});

describe('decideOnOpen', () => {
  it.for([
    { name: 'no local copy', local: null, server: post, want: 'clean', forget: false },
    { name: 'a copy equal to the site', local: copy(), server: post, want: 'clean', forget: true },
    {
      name: 'a copy equal to a newer site version',
      local: copy({}, 1),
      server: post,
      want: 'clean',
      forget: true,
    },
    {
      name: 'a copy with more text',
      local: copy({ content: 'We built. And more.' }),
      server: post,
      want: 'offer',
    },
    {
      name: 'an older copy that differs',
      local: copy({ title: 'x' }, 1),
      server: post,
      want: 'offer',
    },
    {
      name: 'an empty new post',
      local: copy({ title: '', content: '' }, 0),
      server: null,
      want: 'clean',
      forget: true,
    },
    { name: 'a new post with text', local: copy({ title: 'Hi' }, 0), server: null, want: 'offer' },
  ])('$name → $want', ({ local, server, want, forget }) => {
    const got = decideOnOpen(local, server);
    expect(got.kind).toBe(want);
    if (got.kind === 'clean') expect(got.forget).toBe(forget);
    else expect(got.local).toBe(local);
  });
});

describe('a conflict', () => {
  const theirs: Post = { ...post, content: 'Their text', version: 5, updatedBy: 'Ben' };
  const conflict: Conflict = {
    error: 'someone else saved this post',
    theirs,
    yours: { title: post.title, date: post.date, content: 'My text' },
  };
  const mine = { title: post.title, date: post.date, content: 'My text, and more' };

  it('is recognised from a 409 body', () => {
    expect(isConflict(conflict)).toBe(true);
    expect(isConflict({ error: 'x' })).toBe(false);
    expect(isConflict(null)).toBe(false);
  });

  it('keeping theirs shows their version, nothing to save', () => {
    expect(settleConflict(conflict, 'theirs', mine)).toEqual({
      fields: { title: 'Build week', date: post.date, content: 'Their text' },
      baseVersion: 5,
      save: false,
    });
  });

  it('keeping yours saves the text now on top of their version', () => {
    expect(settleConflict(conflict, 'yours', mine)).toEqual({
      fields: mine,
      baseVersion: 5,
      save: true,
    });
  });
});

describe('saveStateLabel', () => {
  it('says offline text is on the phone and will sync', () => {
    expect(saveStateLabel('local')).toBe('Saved on this phone — will sync');
    expect(saveStateLabel('saved')).toBe('Saved');
    expect(saveStateLabel('conflict')).toContain('someone else');
  });
});
