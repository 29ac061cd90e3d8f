import { useDocumentTitle } from '../hooks/use-document-title';

/** The What time is it? page; the pages issue fills in the spec's content. */
export default function WhatTimeIsIt() {
  useDocumentTitle('RoboHornets - WhatTimeIsIt');
  return (
    <section className="page">
      <h1>What time is it?</h1>
    </section>
  );
}
