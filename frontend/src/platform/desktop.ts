import { News, Report, StartRoute } from '../../wailsjs/go/main/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { NewsSnapshot, Platform } from './types';

/** How often the page tells Go it is alive and what it shows. */
const heartbeatMs = 5000;

/** The route the window was opened on (--route), or '' for the default. */
export function desktopStartRoute(): Promise<string> {
  return StartRoute();
}

/** What the page shows now: its route, title and headings. */
function pageState() {
  const headings = [...document.querySelectorAll('main h1, main h2')]
    .map((h) => h.textContent?.trim() ?? '')
    .filter((text) => text !== '');
  return { route: window.location.pathname, title: document.title, headings };
}

/** The platform of the desktop window: Go bindings and Wails events. */
export function desktopPlatform(): Platform {
  let offset = 0;
  const report = () => void Report(pageState());
  setInterval(report, heartbeatMs);
  return {
    kind: 'desktop',
    subscribeNews(onUpdate) {
      let active = true;
      void News().then((s) => {
        if (active) onUpdate(s as NewsSnapshot);
      });
      const off = EventsOn('news', (s: NewsSnapshot) => onUpdate(s));
      return () => {
        active = false;
        off();
      };
    },
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
  };
}
