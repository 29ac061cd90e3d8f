import { outreach } from './content';
import { useRouteHead } from '../../shared/use-route-head';
import './pages.css';

/** The Outreach page: still the placeholder the spec shows. */
export function Outreach() {
  useRouteHead('/outreach');
  return (
    <div className="page page--placeholder">
      <h1 className="visually-hidden">{outreach.heading}</h1>
      <p>{outreach.placeholder}</p>
    </div>
  );
}
