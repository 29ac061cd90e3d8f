import { useDocumentTitle } from '../hooks/use-document-title';

/** The CRESCENDO page; the pages issue fills in the spec's content. */
export default function Crescendo() {
  useDocumentTitle('RoboHornets - Crescendo');
  return (
    <section className="page">
      <h1>CRESCENDO</h1>
    </section>
  );
}
