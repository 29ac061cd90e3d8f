import { useEffect, useState } from 'react';

/** The follow page's worker: its script, and the only pages it controls. */
export const workerUrl = '/sw.js';
export const workerScope = '/follow';

/** What the page knows of its worker: a new version waits, and how to switch to it. */
export interface WorkerUpdate {
  /** A new version is installed and waits for this page's word. */
  waiting: boolean;
  /** Tells the waiting worker to take over, then reloads the page once it has. */
  reload(): void;
}

/**
 * Registers the follow page's worker (scope /follow only: the kiosk
 * window, /pit, /admin and the rest of the site are never under it) after
 * the page has loaded, and follows its updates. A new version waits (the
 * worker never skips waiting on its own): the page offers to reload, and
 * only then does the new worker take over, so one page never mixes the
 * files of two versions.
 */
export function useServiceWorker(enabled: boolean): WorkerUpdate {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  useEffect(() => {
    if (!enabled || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    const watch = (reg: ServiceWorkerRegistration) => {
      const offer = () => {
        if (!cancelled && reg.waiting && navigator.serviceWorker.controller)
          setWaiting(reg.waiting);
      };
      offer();
      reg.addEventListener('updatefound', () => {
        const installing = reg.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer();
        });
      });
    };
    const register = () => {
      navigator.serviceWorker
        .register(workerUrl, { scope: workerScope })
        .then((reg) => {
          if (!cancelled) watch(reg);
        })
        .catch(() => {}); // no worker (private mode, http): the page works without it
    };
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', register);
    };
  }, [enabled]);
  return {
    waiting: waiting !== null,
    reload() {
      if (!waiting) return;
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
        once: true,
      });
      waiting.postMessage({ type: 'SKIP_WAITING' });
    },
  };
}
