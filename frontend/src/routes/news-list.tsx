import { useDocumentTitle } from '../hooks/use-document-title';

/** The NEWS page; the pages issue fills in the spec's content. */
export function NewsList() {
  useDocumentTitle('RoboHornets - News');
  return (
    <section className="page">
      <h1>NEWS</h1>
    </section>
  );
}
