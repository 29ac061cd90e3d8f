import { lazy, useEffect } from 'react';
import { Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { Footer } from './features/site/footer';
import { Header } from './features/site/header';
import './features/kiosk/kiosk-layer.css';
import { Optional } from './shared/optional';
import { onDemand } from './shared/page-load';
import { RouteError } from './shared/route-error';
import { consoleRoutes } from './features/console/public/routes';
import { useHostCommands } from './features/kiosk/use-host-commands';
import { useScrollToTop } from './shared/use-scroll-to-top';
import { headerVisible } from './features/site/header-visible';
import { Routes } from './gen/spec.gen';
import { usePlatform } from './platform';
import { About } from './features/site/about';
import { Contact } from './features/site/contact';
import { Donate } from './features/site/donate';
import { Home } from './features/site/home';
import { NewsArticle } from './features/news/news-article';
import { NewsList } from './features/news/news-list';
import { Outreach } from './features/site/outreach';
import { Sponsors } from './features/site/sponsors';

/** A page of the route table (internal/spec/routes.go, generated into spec.gen.ts). */
type RoutePath = keyof typeof Routes;

/** A page's route fields: its component, or how to load it on demand. */
type Page = Pick<RouteObject, 'Component' | 'lazy'>;

/**
 * What each page of the route table renders. The paths are the generated
 * table's: a page missing here, or one the table does not have, fails the
 * type check.
 */
const pages = {
  '/': { Component: Home },
  '/about': { Component: About },
  '/contact': { Component: Contact },
  '/news': { Component: NewsList },
  '/outreach': { Component: Outreach },
  '/sponsors': { Component: Sponsors },
  '/donate': { Component: Donate },
  // The season pages, the countdown and the pit display carry heavy
  // animations or data; each loads on demand, as its own chunk.
  '/reefscape': onDemand(() => import('./features/seasons/reefscape')),
  '/crescendo': onDemand(() => import('./features/seasons/crescendo')),
  '/rebuilt': onDemand(() => import('./features/seasons/rebuilt')),
  '/whattimeisit': onDemand(() => import('./features/countdown/whattimeisit')),
  '/pit': onDemand(() => import('./features/pit/pit')),
  '/follow': onDemand(() => import('./features/follow/follow')),
} satisfies Record<RoutePath, Page>;

// Only an unattended screen (the desktop window's --kiosk) needs this; its
// style (night dimming too) stays in the first load.
const KioskLayer = lazy(() =>
  import('./features/kiosk/kiosk-layer').then((m) => ({ default: m.KioskLayer })),
);

// The pit notice's bar loads on demand too: the first load stays as light.
const NoticeBanner = lazy(() =>
  import('./features/pit/notice-banner').then((m) => ({ default: m.NoticeBanner })),
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
        <Outlet />
      </main>
      <Footer />
      {!onPit && (
        <Optional>
          <NoticeBanner />
        </Optional>
      )}
    </>
  );
}

/** The error notice where no frame is left around it: a main of its own. */
function FramelessError() {
  return (
    <main id="main">
      <RouteError />
    </main>
  );
}

/** What every route has around it: the navigation's effects and, on an unattended screen, the kiosk layer. */
function Root() {
  const platform = usePlatform();
  return (
    <>
      <NavigationEffects />
      {platform.kiosk && (
        <Optional>
          <KioskLayer />
        </Optional>
      )}
      <Outlet />
    </>
  );
}

/**
 * The whole site as route objects (every route of docs/SPEC.md section 2):
 * every page of the route table, a news article, and home for any other
 * path, in the frame, where a page that fails shows its notice; and the
 * team console, which is not a public page (not in the route table, nor
 * the sitemap), in its own frame.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    // What fails outside a page's frame: the frame itself.
    errorElement: <FramelessError />,
    children: [
      {
        element: <Layout />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              ...(Object.keys(Routes) as RoutePath[]).map((path) => ({ path, ...pages[path] })),
              { path: '/news/:id', Component: NewsArticle },
              { path: '*', element: <Navigate to="/" replace /> },
            ],
          },
        ],
      },
      // The team console's pages (console/public/routes.tsx): a frame of
      // their own, each page on demand.
      { path: '/admin', children: consoleRoutes },
    ],
  },
];
