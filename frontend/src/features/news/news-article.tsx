import { Link, useParams } from 'react-router';
import { useArticle } from '../../shared/use-news';
import { useHead } from '../../shared/use-route-head';
import { formatNewsDate } from './articles';
import { articleTitle, NewsDescription, Routes } from '../../gen/spec.gen';
import './news.css';

/**
 * One article, live: title, date and the whole rendered content. An article
 * that does not exist shows nothing (docs/SPEC.md section 8).
 */
export function NewsArticle() {
  const { id = '' } = useParams();
  const article = useArticle(id);
  // The news list's head until the article is known.
  useHead(
    article ? articleTitle(article.title) : Routes['/news'].title,
    article ? article.title : NewsDescription,
  );

  if (!article) {
    return <section className="news-article" aria-busy={article === undefined} />;
  }
  return (
    <article className="news-article" aria-labelledby="article-title">
      <p className="news-article__back">
        <Link to="/news">← All news</Link>
      </p>
      <h1 id="article-title">{article.title}</h1>
      <time className="news-item__date" dateTime={article.date}>
        {formatNewsDate(article.date)}
      </time>
      <div
        className="news-article__body markdown"
        // The Go side renders markdown in safe mode: raw HTML escaped, unsafe links dropped.
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
    </article>
  );
}
