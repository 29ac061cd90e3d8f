import { outreach, pageTitles } from '../content/site';
import { useDocumentTitle } from '../hooks/use-document-title';
import './pages.css';

/** The Outreach page: still the placeholder the spec shows. */
export function Outreach() {
  useDocumentTitle(pageTitles.outreach);
  return (
    <div className="page page--placeholder">
      <h1 className="visually-hidden">{outreach.heading}</h1>
      <p>{outreach.placeholder}</p>
    </div>
  );
}
