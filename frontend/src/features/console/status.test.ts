import { describe, expect, it } from 'vitest';
import type { Post } from '../../gen/wire.gen';
import { groupPosts, statusLabel } from './status';

const at = (id: string, status: string, date: string, updatedAt = date): Post => ({
  id,
  title: id,
  date,
  content: '',
  version: 1,
  status,
  changed: false,
  updatedAt,
  updatedBy: 'Ana',
});

describe('groupPosts', () => {
  it('puts each post in its group, in the order the list shows', () => {
    const groups = groupPosts([
      at('old', 'published', '2026-01-01T00:00:00Z'),
      at('later', 'scheduled', '2026-06-02T00:00:00Z'),
      at('d1', 'draft', '0001-01-01T00:00:00Z', '2026-03-01T00:00:00Z'),
      at('new', 'published', '2026-03-01T00:00:00Z'),
      at('soon', 'scheduled', '2026-06-01T00:00:00Z'),
      at('d2', 'draft', '0001-01-01T00:00:00Z', '2026-04-01T00:00:00Z'),
    ]);
    expect(groups.scheduled.map((p) => p.id)).toEqual(['soon', 'later']);
    expect(groups.published.map((p) => p.id)).toEqual(['new', 'old']);
    expect(groups.drafts.map((p) => p.id)).toEqual(['d2', 'd1']);
  });
});

describe('statusLabel', () => {
  const when = (iso: string) => `<${iso}>`;
  it.for([
    { post: { status: 'draft', date: 'x', changed: false }, want: 'Draft' },
    { post: { status: 'published', date: 'x', changed: false }, want: 'Published' },
    {
      post: { status: 'published', date: 'x', changed: true },
      want: 'Published · edits not on the site yet',
    },
    { post: { status: 'scheduled', date: 'D', changed: false }, want: 'Scheduled for <D>' },
  ])('$want', ({ post, want }) => {
    expect(statusLabel(post, when)).toBe(want);
  });
});
