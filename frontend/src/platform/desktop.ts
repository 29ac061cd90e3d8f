import {
  CSPViolation,
  Event as EventBinding,
  Interacted,
  News,
  Report,
  Settings,
} from '../../wailsjs/go/main/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import { TickStats } from './tick-stats';
import { watchViolations } from './csp';
import type { Article, EventStatus, NewsSnapshot, Notice, Platform, WindowSettings } from './types';

/** How often the page tells Go it is alive and what it shows (the watchdog's heartbeat). */
const heartbeatMs = 5000;

/** Reads the window's settings from Go. */
export function desktopSettings(): Promise<WindowSettings> {
  return Settings();
}

/**
 * Sends each Content-Security-Policy violation of the page to Go, which logs
 * it ("csp violation"): nobody reads the window's console, and the desktop
 * tests read its log. The page load is named by its time origin, which a
 * reload changes. Listening starts with the page's script, after WebKit has
 * read index.html: a violation in that file's own markup is not seen here
 * (e2e/csp.test.mjs watches Chromium from before the document).
 */
export function reportViolations(): void {
  watchViolations(document, String(performance.timeOrigin), (v) => void CSPViolation(v));
}

/** The text of element as a screen reader gets it: without aria-hidden parts. */
function spokenText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** What the page shows now: its route, title and headings, and how well its clock keeps time. */
function pageState(ticks: TickStats) {
  const headings = [...document.querySelectorAll('main h1, main h2')]
    .map(spokenText)
    .filter((text) => text !== '');
  const { count, p50, p99, sentP99 } = ticks.summary();
  return {
    route: window.location.pathname,
    title: document.title,
    headings,
    ticks: count,
    tickLagP50Ms: p50,
    tickLagP99Ms: p99,
    tickSentP99Ms: sentP99,
  };
}

/**
 * Hands onUpdate each value Go sends as the Wails event name, and first the
 * value first brings, unless an event brought a newer one before it came.
 * Returns the function that stops.
 */
function follow<T>(
  name: string,
  first: Promise<T | undefined>,
  onUpdate: (value: T) => void,
): () => void {
  let fresh = true;
  void first.then((value) => {
    if (fresh && value) onUpdate(value);
  });
  const off = EventsOn(name, (value: T) => {
    fresh = false;
    onUpdate(value);
  });
  return () => {
    fresh = false;
    off();
  };
}

/** The platform of the desktop window: Go bindings and Wails events. */
export function desktopPlatform(settings: WindowSettings): Platform {
  let offset = 0;
  const ticks = new TickStats();
  // Every tick is measured, whether or not a page listens to the clock.
  EventsOn('tick', (goNowMs: number) => ticks.add(goNowMs, Date.now()));
  const report = () => void Report(pageState(ticks));
  setInterval(report, heartbeatMs);
  // The latest news list of the window, for a view's first render; Go sends
  // every change as an event.
  let latestNews: NewsSnapshot | undefined;
  let newsEvents = 0;
  EventsOn('news', (s: NewsSnapshot) => {
    latestNews = s;
    newsEvents++;
  });
  const subscribeNews = (onUpdate: (s: NewsSnapshot) => void) => {
    let active = true;
    const eventsBefore = newsEvents;
    void News().then((s) => {
      // An event that came meanwhile is newer than this answer.
      if (newsEvents === eventsBefore) latestNews = s as NewsSnapshot;
      if (active) onUpdate(latestNews ?? (s as NewsSnapshot));
    });
    const off = EventsOn('news', (s: NewsSnapshot) => onUpdate(s));
    return () => {
      active = false;
      off();
    };
  };
  const findArticle = (s: NewsSnapshot, id: string) =>
    (s.articles ?? []).find((a: Article) => a.id === id) ?? null;
  return {
    kind: 'desktop',
    kiosk: settings.kiosk,
    siteUrl: settings.siteUrl || null,
    subscribeNews,
    // One Go subscription feeds the window; an article is picked from the list.
    subscribeArticle: (id, onUpdate) => subscribeNews((s) => onUpdate(findArticle(s, id))),
    currentNews: () => latestNews,
    currentArticle: (id) => (latestNews ? findArticle(latestNews, id) : undefined),
    subscribeTicks(onTick) {
      return EventsOn('tick', (goNowMs: number) => {
        offset = goNowMs - Date.now();
        onTick(goNowMs);
      });
    },
    now: () => Date.now() + offset,
    ready() {
      // After React commits and the browser paints, so the state is what is on screen.
      requestAnimationFrame(() => setTimeout(report, 0));
    },
    subscribeKiosk(onCommand) {
      const offNavigate = EventsOn('navigate', (route: string) =>
        onCommand({ kind: 'navigate', route }),
      );
      const offDim = EventsOn('dim', (on: boolean) => onCommand({ kind: 'dim', on }));
      return () => {
        offNavigate();
        offDim();
      };
    },
    interacted() {
      void Interacted();
    },
    // The window's page has no copy in it: the first status comes from the binding.
    currentEvent: () => undefined,
    subscribeEvent(onUpdate) {
      return follow('event', EventBinding() as Promise<EventStatus>, onUpdate);
    },
    subscribeNotice(onUpdate) {
      // The first notice comes from the window's own server.
      const first = fetch('/api/notice', { cache: 'no-store' })
        .then((res) => (res.ok ? (res.json() as Promise<Notice>) : undefined))
        .catch(() => undefined); // no answer: the next event brings the notice
      return follow('notice', first, onUpdate);
    },
  };
}
