import { Link } from 'react-router';
import './season-home-link.css';

/**
 * The way back home from a season page, which has no header (docs/SPEC.md
 * section 2). The dark variant suits light or gold backgrounds.
 */
export function SeasonHomeLink({ dark = false }: { dark?: boolean }) {
  return (
    <Link to="/" className={dark ? 'season-home season-home--dark' : 'season-home'}>
      <span aria-hidden="true">←</span> RoboHornets home
    </Link>
  );
}
