import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { Footer } from './components/footer';
import { Header } from './components/header';
import { lazyPage, type LazyPage } from './components/lazy-page';
import './components/kiosk-layer.css';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { useHostCommands } from './hooks/use-host-commands';
import { useScrollToTop } from './hooks/use-scroll-to-top';
import { headerVisible } from './lib/header';
import { usePlatform } from './platform';
import { About } from './routes/about';
import { Contact } from './routes/contact';
import { Donate } from './routes/donate';
import { Home } from './routes/home';
import { NewsArticle } from './routes/news-article';
import { NewsList } from './routes/news-list';
import { Outreach } from './routes/outreach';
import { Sponsors } from './routes/sponsors';

// The season pages and the countdown carry heavy animations; load them on demand.
const Reefscape = lazyPage(() => import('./routes/reefscape'));
const Crescendo = lazyPage(() => import('./routes/crescendo'));
const Rebuilt = lazyPage(() => import('./routes/rebuilt'));
const WhatTimeIsIt = lazyPage(() => import('./routes/whattimeisit'));
const Pit = lazyPage(() => import('./routes/pit'));

/** The pages loaded on demand, by path. */
const lazyPages: Record<string, LazyPage> = {
  '/reefscape': Reefscape,
  '/crescendo': Crescendo,
  '/rebuilt': Rebuilt,
  '/whattimeisit': WhatTimeIsIt,
  '/pit': Pit,
};

/**
 * Fetches the code of the page at pathname when it is loaded on demand, so
 * the first render can show it whole; resolves at once for any other page.
 * Rejects when the code cannot be fetched (the page's error boundary then
 * says so when it renders).
 */
export function preloadPage(pathname: string): Promise<void> {
  // Paths match as the router matches them: in any case, with a trailing slash.
  const page = lazyPages[pathname.toLowerCase().replace(/(.)\/+$/, '$1')];
  return page ? page.preload() : Promise.resolve();
}

// Only an unattended screen (the desktop window's --kiosk) needs this; its
// style (night dimming too) stays in the first load.
const KioskLayer = lazy(() =>
  import('./components/kiosk-layer').then((m) => ({ default: m.KioskLayer })),
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

/** The frame of every page: header (unless on a season page), content, footer. */
function Layout() {
  const { pathname } = useLocation();
  const showHeader = headerVisible(pathname);
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
    </>
  );
}

/** The whole site: every route of SPEC.md section 2. */
export function App() {
  const platform = usePlatform();
  return (
    <>
      <NavigationEffects />
      {platform.kiosk && (
        <Suspense fallback={null}>
          <KioskLayer />
        </Suspense>
      )}
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<Home />} />
          <Route path="about" element={<About />} />
          <Route path="contact" element={<Contact />} />
          <Route path="news" element={<NewsList />} />
          <Route path="news/:id" element={<NewsArticle />} />
          <Route path="outreach" element={<Outreach />} />
          <Route path="sponsors" element={<Sponsors />} />
          <Route path="donate" element={<Donate />} />
          <Route path="reefscape" element={<Reefscape />} />
          <Route path="crescendo" element={<Crescendo />} />
          <Route path="rebuilt" element={<Rebuilt />} />
          <Route path="whattimeisit" element={<WhatTimeIsIt />} />
          <Route path="pit" element={<Pit />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </>
  );
}
