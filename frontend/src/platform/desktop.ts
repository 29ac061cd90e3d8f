import { News, Ready, StartRoute } from '../../wailsjs/go/main/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { NewsSnapshot, Platform } from './types';

/** The route the window was opened on (--route), or '' for the default. */
export function desktopStartRoute(): Promise<string> {
  return StartRoute();
}

/** The platform of the desktop window: Go bindings and Wails events. */
export function desktopPlatform(): Platform {
  let offset = 0;
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
    ready(route) {
      void Ready(route);
    },
  };
}
