import { useDocumentTitle } from '../hooks/use-document-title';

/** The Article page; the pages issue fills in the spec's content. */
export function NewsArticle() {
  useDocumentTitle('RoboHornets - News');
  return (
    <section className="page">
      <h1>Article</h1>
    </section>
  );
}
