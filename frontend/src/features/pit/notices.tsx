import { useLayoutEffect, useMemo, useRef } from 'react';
import { clockText, noticesOf } from './board';
import type { EventStatus } from '../../platform/types';

/**
 * Hides the items of list from the first one that does not fit in it whole:
 * a screen shows no half-cut line, and nothing lies below the panel. The
 * newest item always stays.
 */
function fitItems(list: HTMLElement) {
  const items = [...list.children] as HTMLElement[];
  items.forEach((item) => (item.hidden = false));
  const bottom = list.getBoundingClientRect().bottom;
  let cut = false;
  items.forEach((item, i) => {
    cut ||= i > 0 && item.getBoundingClientRect().bottom > bottom + 0.5;
    item.hidden = cut;
  });
}

/**
 * The event staff's announcements and the open parts requests, newest first,
 * as many as fit. Every string is rendered as text: nothing from upstream
 * becomes markup.
 */
export function PitNotices({ status }: { status: EventStatus }) {
  const { announcements, partsRequests } = status;
  const items = useMemo(
    () => noticesOf(announcements, partsRequests),
    [announcements, partsRequests],
  );
  const listRef = useRef<HTMLOListElement>(null);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    fitItems(list);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => fitItems(list));
    observer.observe(list);
    return () => observer.disconnect();
    // Fitted again when the notices change, and by the observer when the panel does.
  }, [items, status.timezone]);

  return (
    <section className="pit-panel pit-notices" aria-labelledby="pit-notices-title">
      <h2 id="pit-notices-title" className="pit-panel__title">
        Announcements &amp; parts requests
      </h2>
      {items.length === 0 ? (
        <p className="pit-notices__empty">Nothing announced</p>
      ) : (
        <ol ref={listRef} className="pit-notices__list">
          {items.map((item) => (
            <li key={item.id} className={`pit-notice pit-notice--${item.kind}`}>
              {item.postedMs !== null && (
                <time className="pit-notice__time" dateTime={new Date(item.postedMs).toISOString()}>
                  {clockText(item.postedMs, status.timezone)}
                </time>
              )}
              <span className="pit-notice__text">
                {item.kind === 'parts' && (
                  <span className="pit-notice__tag">
                    {item.team ? `Team ${item.team} needs` : 'Part needed'}
                  </span>
                )}
                {item.text}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
