import { useDocumentTitle } from '../hooks/use-document-title';

/** The BTW ROBOTICS page; the pages issue fills in the spec's content. */
export function Home() {
  useDocumentTitle('RoboHornets - Home');
  return (
    <section className="page">
      <h1>BTW ROBOTICS</h1>
    </section>
  );
}
