import { useDocumentTitle } from '../hooks/use-document-title';

/** The outreach works! page; the pages issue fills in the spec's content. */
export function Outreach() {
  useDocumentTitle('RoboHornets - Outreach');
  return (
    <section className="page">
      <h1>outreach works!</h1>
    </section>
  );
}
