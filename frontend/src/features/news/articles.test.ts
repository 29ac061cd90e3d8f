import { describe, expect, it } from 'vitest';
import type { Article } from '../../platform';
import { defaultSortOrder, formatNewsDate, isSortOrder, sortArticles } from './articles';

const article = (id: string, title: string, date: string): Article => ({
  id,
  title,
  date,
  content: '',
  html: '',
  preview: '',
});

const list = [
  article('b', 'banana', '2026-02-01T10:00:00Z'),
  article('c', 'Äpfel', '2026-03-01T10:00:00Z'),
  article('a', 'apple', '2026-01-01T10:00:00Z'),
  article('d', 'Cherry', '2025-12-31T23:59:00-06:00'),
];

describe('sortArticles', () => {
  it.each([
    ['new-old', ['c', 'b', 'a', 'd']],
    ['old-new', ['d', 'a', 'b', 'c']],
    ['a-z', ['c', 'a', 'b', 'd']],
    ['z-a', ['d', 'b', 'a', 'c']],
  ] as const)('%s', (order, ids) => {
    expect(sortArticles(list, order).map((a) => a.id)).toEqual(ids);
  });

  it('compares dates as instants, not strings', () => {
    // 2025-12-31 23:59 in Tulsa is 2026-01-01 05:59 UTC: before 'a' at 10:00 UTC.
    const sorted = sortArticles([list[2], list[3]], 'old-new');
    expect(sorted.map((a) => a.id)).toEqual(['d', 'a']);
  });

  it('leaves its input alone', () => {
    const copy = [...list];
    sortArticles(list, 'a-z');
    expect(list).toEqual(copy);
  });

  it('defaults to newest first', () => {
    expect(defaultSortOrder).toBe('new-old');
    expect(isSortOrder('new-old')).toBe(true);
    expect(isSortOrder('random')).toBe(false);
  });
});

describe('formatNewsDate', () => {
  it('uses en-US with the long month, day, year, hour and minute', () => {
    const text = formatNewsDate('2026-03-14T20:05:00Z');
    expect(text).toMatch(/^[A-Z][a-z]+ \d{1,2}, 2026(,| at) \d{1,2}:\d{2}\s?[AP]M$/);
    expect(text).toContain('March');
    expect(text).toContain(':05');
  });
});
