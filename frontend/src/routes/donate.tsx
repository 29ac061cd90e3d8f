import { useDocumentTitle } from '../hooks/use-document-title';

/** The Support the RoboHornets page; the pages issue fills in the spec's content. */
export function Donate() {
  useDocumentTitle('RoboHornets - Donate');
  return (
    <section className="page">
      <h1>Support the RoboHornets</h1>
    </section>
  );
}
