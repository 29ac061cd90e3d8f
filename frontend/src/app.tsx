import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import {
  matchRoutes,
  Navigate,
  Outlet,
  useLocation,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { Footer } from './components/footer';
import { Header } from './components/header';
import { lazyPage, type LazyPage } from './components/lazy-page';
import './components/kiosk-layer.css';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { useHostCommands } from './hooks/use-host-commands';
import { useScrollToTop } from './hooks/use-scroll-to-top';
import { headerVisible } from './lib/header';
import { Routes } from './lib/spec.gen';
import { usePlatform } from './platform';
import { About } from './routes/about';
import { Contact } from './routes/contact';
import { Donate } from './routes/donate';
import { Home } from './routes/home';
import { NewsArticle } from './routes/news-article';
import { NewsList } from './routes/news-list';
import { Outreach } from './routes/outreach';
import { Sponsors } from './routes/sponsors';

/** A page of the route table (internal/spec/routes.go, generated into spec.gen.ts). */
type RoutePath = keyof typeof Routes;

/**
 * What each page of the route table renders. The paths are the generated
 * table's: a page missing here, or one the table does not have, fails the
 * type check.
 */
const pages = {
  '/': Home,
  '/about': About,
  '/contact': Contact,
  '/news': NewsList,
  '/outreach': Outreach,
  '/sponsors': Sponsors,
  '/donate': Donate,
  // The season pages, the countdown and the pit display carry heavy
  // animations or data; each loads on demand, as its own chunk.
  '/reefscape': lazyPage(() => import('./routes/reefscape')),
  '/crescendo': lazyPage(() => import('./routes/crescendo')),
  '/rebuilt': lazyPage(() => import('./routes/rebuilt')),
  '/whattimeisit': lazyPage(() => import('./routes/whattimeisit')),
  '/pit': lazyPage(() => import('./routes/pit')),
} satisfies Record<RoutePath, ComponentType | LazyPage>;

// The team console's pages (/admin, /admin/signin, /admin/enrol,
// /admin/*) load on demand: their frame, which routes them, with sign-in and
// enrol as one small chunk anyone may fetch; the console (which the frame
// loads) as its own, which needs a session.
const AdminPages = lazyPage(() => import('./console/public/frame'));

// Only an unattended screen (the desktop window's --kiosk) needs this; its
// style (night dimming too) stays in the first load.
const KioskLayer = lazy(() =>
  import('./components/kiosk-layer').then((m) => ({ default: m.KioskLayer })),
);

// The pit notice's bar loads on demand too: the first load stays as light.
const NoticeBanner = lazy(() =>
  import('./components/notice-banner').then((m) => ({ default: m.NoticeBanner })),
);

/**
 * Scrolls to the top after every navigation, tells the host the route
 * rendered, and follows the host's commands.
 */
function NavigationEffects() {
  const { pathname } = useLocation();
  const platform = usePlatform();
  useHostCommands();
  useScrollToTop();
  useEffect(() => {
    platform.ready();
  }, [pathname, platform]);
  return null;
}

/**
 * The frame of every page: header (unless on a season page), content,
 * footer, and the pit notice (the pit display shows it in its board).
 */
function Layout() {
  const { pathname } = useLocation();
  const showHeader = headerVisible(pathname);
  const onPit = /^\/pit\/?$/i.test(pathname);
  useEffect(() => {
    document.body.classList.toggle('no-header', !showHeader);
  }, [showHeader]);
  return (
    <>
      {showHeader && <Header />}
      <main id="main">
        {/* A new route gets a fresh boundary, so one failed page does not block the next. */}
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      {!onPit && (
        <Suspense fallback={null}>
          <NoticeBanner />
        </Suspense>
      )}
    </>
  );
}

/**
 * The whole site as route objects: every page of the route table, a news
 * article, and home for any other path, in the frame.
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...(Object.keys(Routes) as RoutePath[]).map((path) => ({ path, Component: pages[path] })),
      { path: '/news/:id', Component: NewsArticle },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
  // The team console: not a public page (not in the route table, nor the
  // sitemap), in its own frame.
  { path: '/admin/*', Component: AdminPages },
];

/** Whether page is loaded on demand. */
function isLazyPage(page: unknown): page is LazyPage {
  return typeof page === 'function' && 'preload' in page;
}

/**
 * Fetches the code of the page at pathname when it is loaded on demand
 * (matched as the router matches it: in any case, with a trailing slash),
 * so its first render shows it whole; resolves at once for any other page.
 * Rejects when the code cannot be fetched (the page's error boundary then
 * says so when it renders).
 */
export function preloadPage(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(
    matches.map(({ route }) => (isLazyPage(route.Component) ? route.Component.preload() : null)),
  ).then(() => undefined);
}

/** The whole site: every route of docs/SPEC.md section 2. */
export function App() {
  const platform = usePlatform();
  const page = useRoutes(routes);
  return (
    <>
      <NavigationEffects />
      {platform.kiosk && (
        <Suspense fallback={null}>
          <KioskLayer />
        </Suspense>
      )}
      {page}
    </>
  );
}
