import { useDocumentTitle } from '../hooks/use-document-title';

/** The CONTACT US page; the pages issue fills in the spec's content. */
export function Contact() {
  useDocumentTitle('RoboHornets - Contact');
  return (
    <section className="page">
      <h1>CONTACT US</h1>
    </section>
  );
}
