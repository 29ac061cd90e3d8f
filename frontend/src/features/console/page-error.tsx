import { Link, useLocation, useRevalidator, useRouteError } from 'react-router';
import { messageOf } from './api';
import { AdminError } from './public/admin-error';
import { AdminRouteError } from './public/admin-route-error';
import { ApiError, NetworkError } from './public/api';
import { consoleHome } from './public/next';

/**
 * The error element of a console page: what its loader could not get (a
 * post that is not there, no connection) in the site's sentence, with a
 * way to try again and back to the posts; anything else as the console's
 * route error.
 */
export function PageError() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const revalidator = useRevalidator();
  if (!(error instanceof ApiError || error instanceof NetworkError)) return <AdminRouteError />;
  return (
    <div className="console-page">
      <AdminError>{messageOf(error)}</AdminError>
      <div className="admin-row">
        <button
          type="button"
          className="admin-button"
          disabled={revalidator.state !== 'idle'}
          onClick={() => void revalidator.revalidate()}
        >
          Try again
        </button>
        {pathname.replace(/\/+$/, '') !== consoleHome && (
          <Link to={consoleHome}>Back to the posts</Link>
        )}
      </div>
    </div>
  );
}
