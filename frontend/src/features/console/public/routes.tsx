// The console as route objects, the children of /admin in the site's route
// table (app.tsx). This module is in the site's first load, so it holds
// only the table: every page's code loads on demand. The public pages
// (sign-in, enrol) and the frame are small chunks anyone may fetch; the
// signed-in pages are chunks of the console's own (assets/console/, which
// the server hands out only with a session: vite.config.ts), fetched only
// once the site said someone is signed in (session.ts).
import { Navigate, type RouteObject } from 'react-router';
import { loadPage } from '../../../shared/page-load';
import { AdminRouteError } from './admin-route-error';
import { consoleHome } from './next';
import { admitted, gate } from './session';

/** What a page's module gives its route: its component, and its loader, action and error element if any. */
export type PageRoute = Pick<
  RouteObject,
  'Component' | 'ErrorBoundary' | 'loader' | 'action' | 'shouldRevalidate'
>;

/** A module of the console with a page: its route fields. */
interface PageModule {
  route: PageRoute;
}

/**
 * A route's lazy for a signed-in page: fetches its module once someone is
 * signed in. When no one is (or the site cannot say), it fetches nothing
 * and gives nothing: the gate (the parent's loader) answers that
 * navigation, with sign-in or its error, and only a new document (after
 * sign-in, or the error's "Try again") opens the console.
 */
function signedInPage(load: () => Promise<PageModule>) {
  return () =>
    admitted().then(
      () => loadPage(load).then((module) => module.route),
      (): PageRoute => ({}),
    );
}

/**
 * The /admin pages: the frame (no site header or footer; in the desktop
 * window only a sentence), sign-in and enrol, and behind the gate (who is
 * signed in, else sign-in with ?next=) the console and its pages. The
 * members and the log are for admins: their loaders send anyone else to
 * the posts.
 */
export const consoleRoutes: RouteObject[] = [
  {
    lazy: () => loadPage(() => import('./frame')).then((m) => ({ Component: m.AdminFrame })),
    children: [
      {
        path: 'signin',
        lazy: () => loadPage(() => import('./pages')).then((m) => ({ Component: m.SignIn })),
        errorElement: <AdminRouteError />,
      },
      {
        path: 'enrol',
        lazy: () => loadPage(() => import('./pages')).then((m) => ({ Component: m.Enrol })),
        errorElement: <AdminRouteError />,
      },
      {
        id: 'console',
        loader: gate,
        // Asked on the way in; later, a session that ends shows in the API's 401.
        shouldRevalidate: () => false,
        lazy: signedInPage(() => import('../console')),
        errorElement: <AdminRouteError />,
        children: [
          { index: true, lazy: signedInPage(() => import('../posts-list')) },
          { path: 'posts/:id', lazy: signedInPage(() => import('../editor/editor')) },
          { path: 'notice', lazy: signedInPage(() => import('../notice')) },
          { path: 'passkeys', lazy: signedInPage(() => import('../passkeys')) },
          { path: 'members', lazy: signedInPage(() => import('../members')) },
          { path: 'audit', lazy: signedInPage(() => import('../audit')) },
          { path: '*', element: <Navigate to={consoleHome} replace /> },
        ],
      },
    ],
  },
];
