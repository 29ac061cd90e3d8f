import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../shared/banner/banner';
import { VisuallyHidden } from '../../shared/staggered-text';
import { useRouteHead } from '../../shared/use-route-head';
import { useNews } from '../../shared/use-news';
import {
  defaultSortOrder,
  formatNewsDate,
  isSortOrder,
  sortArticles,
  sortOrders,
  type SortOrder,
} from './articles';
import { NewsPreviewClampLines } from '../../gen/spec.gen';
import { cssVars } from '../../shared/css-vars';
import './news.css';

/** The news list: every article, live, in the order the reader picks. */
export function NewsList() {
  useRouteHead('/news');
  const snapshot = useNews();
  const [order, setOrder] = useState<SortOrder>(defaultSortOrder);
  const articles = useMemo(
    () => (snapshot ? sortArticles(snapshot.articles ?? [], order) : []),
    [snapshot, order],
  );

  return (
    <>
      <Banner title="NEWS" />
      <section className="news" aria-labelledby="news-heading" aria-busy={snapshot === null}>
        <div className="news__toolbar">
          <h2 id="news-heading" className="visually-hidden">
            All news
          </h2>
          <label className="news__sort">
            Sort by
            <select
              value={order}
              onChange={(e) => {
                if (isSortOrder(e.target.value)) setOrder(e.target.value);
              }}
            >
              {sortOrders.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {snapshot && !snapshot.live && snapshot.asOf && (
          <p className="news__offline" role="status">
            Offline: showing the news as of {formatNewsDate(snapshot.asOf)}. It updates by itself
            when the connection is back.
          </p>
        )}
        {snapshot === null && <p className="loading">Loading the news…</p>}
        {snapshot && articles.length === 0 && <p className="news__empty">No news yet.</p>}
        <ol className="news__list">
          {articles.map((a) => (
            <li key={a.id}>
              <article className="news-item" aria-labelledby={`news-${a.id}`}>
                <h2 id={`news-${a.id}`} className="news-item__title">
                  {a.title}
                </h2>
                <time className="news-item__date" dateTime={a.date}>
                  {formatNewsDate(a.date)}
                </time>
                <div
                  className="news-item__preview markdown"
                  style={cssVars({ '--clamp': NewsPreviewClampLines })}
                  // The Go side renders markdown in safe mode: raw HTML escaped, unsafe links dropped.
                  dangerouslySetInnerHTML={{ __html: a.preview }}
                />
                <Link className="button button--small" to={`/news/${encodeURIComponent(a.id)}`}>
                  Read More<VisuallyHidden>{`: ${a.title}`}</VisuallyHidden>
                </Link>
              </article>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
