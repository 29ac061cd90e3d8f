import { useEffect, useState, useSyncExternalStore } from 'react';
import { usePlatform } from '../../platform';
import type { EventStatus } from '../../platform/types';

/** The event as the follow page has it: the status, and whether it came from the live stream. */
export interface FollowEvent {
  status: EventStatus | null;
  /** True once the live stream gave it; false for the snapshot (the worker's cache offline). */
  live: boolean;
}

/**
 * The live event status, as the pit display's (the shared stream), started
 * from the copy in the page (the server's, or offline the one the follow
 * page's worker kept with the page), so the first render is final; without
 * one, from GET /api/event: online that answers at once, and offline the
 * worker answers it with the last snapshot it kept. Either way the page
 * opens with data and its time, live once the stream speaks.
 */
export function useFollowEvent(): FollowEvent {
  const platform = usePlatform();
  const [state, setState] = useState<FollowEvent>(() => ({
    status: platform.currentEvent() ?? null,
    live: false,
  }));
  useEffect(() => {
    let live = false;
    let cancelled = false;
    const stop = platform.subscribeEvent((status) => {
      live = true;
      setState({ status, live: true });
    });
    if (platform.kind === 'browser' && platform.currentEvent() === undefined) {
      fetch('/api/event')
        .then((res) => (res.ok ? (res.json() as Promise<EventStatus>) : null))
        .then((status) => {
          if (status && !live && !cancelled) setState({ status, live: false });
        })
        .catch(() => {}); // offline with nothing kept: the stream brings it later
    }
    return () => {
      cancelled = true;
      stop();
    };
  }, [platform]);
  return state;
}

/** Calls onChange when the browser goes online or offline. */
function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser says it is online. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}
