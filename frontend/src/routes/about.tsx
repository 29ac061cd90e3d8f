import { useDocumentTitle } from '../hooks/use-document-title';

/** The ABOUT US page; the pages issue fills in the spec's content. */
export function About() {
  useDocumentTitle('RoboHornets - About');
  return (
    <section className="page">
      <h1>ABOUT US</h1>
    </section>
  );
}
