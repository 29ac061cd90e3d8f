import { useRouteError } from 'react-router';
import { RouteError } from '../../../shared/route-error';
import { AdminError } from './admin-error';
import { ApiError, NetworkError } from './api';

/**
 * The error element of the console's routes: what the site refused or
 * could not answer (who is signed in, say) in its own sentence, with a
 * button that loads the page again; anything else (a page's code that
 * cannot be fetched, a page that fails) as the site's notice, which tries
 * again by itself.
 */
export function AdminRouteError() {
  const error = useRouteError();
  if (!(error instanceof ApiError || error instanceof NetworkError)) return <RouteError />;
  return (
    <div className="console-page">
      <AdminError>{error.message}</AdminError>
      <button type="button" className="admin-button" onClick={() => window.location.reload()}>
        Try again
      </button>
    </div>
  );
}
