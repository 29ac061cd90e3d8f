import { useDocumentTitle } from '../hooks/use-document-title';

/** The REEFSCAPE page; the pages issue fills in the spec's content. */
export default function Reefscape() {
  useDocumentTitle('RoboHornets - Reefscape');
  return (
    <section className="page">
      <h1>REEFSCAPE</h1>
    </section>
  );
}
