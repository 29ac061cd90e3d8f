import { useDocumentTitle } from '../hooks/use-document-title';

/** The NEWS page; the pages issue fills in the spec's content. */
export function Sponsors() {
  useDocumentTitle('RoboHornets - Sponsors');
  return (
    <section className="page">
      <h1>NEWS</h1>
    </section>
  );
}
