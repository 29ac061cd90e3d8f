import { useDocumentTitle } from '../hooks/use-document-title';

/** The REBUILT page; the pages issue fills in the spec's content. */
export default function Rebuilt() {
  useDocumentTitle('RoboHornets - Rebuilt');
  return (
    <section className="page">
      <h1>REBUILT</h1>
    </section>
  );
}
