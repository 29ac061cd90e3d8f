import type { Article } from '../../platform';
import { NewsSortDefault } from '../../gen/spec.gen';

/** The orders the news list offers (docs/SPEC.md section 4). */
export const sortOrders = [
  { value: 'new-old', label: 'Newest to Oldest' },
  { value: 'old-new', label: 'Oldest to Newest' },
  { value: 'a-z', label: 'A to Z' },
  { value: 'z-a', label: 'Z to A' },
] as const;

/** One of the news list's sort orders. */
export type SortOrder = (typeof sortOrders)[number]['value'];

/** The order the list starts in. */
export const defaultSortOrder: SortOrder = NewsSortDefault;

/** Reports whether value names a sort order. */
export function isSortOrder(value: string): value is SortOrder {
  return sortOrders.some((o) => o.value === value);
}

/**
 * Returns a sorted copy of articles: by date for new-old and old-new, by
 * title with locale comparison for a-z and z-a.
 */
export function sortArticles(articles: readonly Article[], order: SortOrder): Article[] {
  const byDate = (a: Article, b: Article) => Date.parse(a.date) - Date.parse(b.date);
  const byTitle = (a: Article, b: Article) => a.title.localeCompare(b.title);
  const sorted = [...articles];
  switch (order) {
    case 'new-old':
      return sorted.sort((a, b) => byDate(b, a));
    case 'old-new':
      return sorted.sort(byDate);
    case 'a-z':
      return sorted.sort(byTitle);
    case 'z-a':
      return sorted.sort((a, b) => byTitle(b, a));
  }
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** Formats an article's date in en-US: long month, day, year, hour and minute. */
export function formatNewsDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}
