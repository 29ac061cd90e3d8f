import { useEffect, useState } from 'react';
import { usePlatform } from '../platform';
import type { Notice } from '../platform/types';

/**
 * Runs start once the page has loaded and the browser is idle (within a
 * couple of seconds), so a page's first paint and its largest content
 * never wait for it; returns what stops it, also before it started.
 */
function afterLoad(start: () => () => void): () => void {
  let stop: (() => void) | undefined;
  let cancelled = false;
  const run = () => {
    if (!cancelled) stop = start();
  };
  const idle = () => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 0);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
    stop?.();
  };
}

/**
 * The pit notice in force, or null: none, taken down, or past its `until`
 * by the host's clock (the server also takes it down then; the page does
 * not wait for that). The notice is followed from after the page's load.
 */
export function useNotice(): Notice | null {
  const platform = usePlatform();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [nowMs, setNowMs] = useState(() => platform.now());
  useEffect(
    () =>
      afterLoad(() =>
        platform.subscribeNotice((n) => {
          setNowMs(platform.now());
          setNotice(n);
        }),
      ),
    [platform],
  );
  const up = notice !== null && notice.text !== '' && Date.parse(notice.until) > nowMs;
  // The clock ticks for this only while a notice is up.
  useEffect(() => (up ? platform.subscribeTicks(setNowMs) : undefined), [platform, up]);
  return up ? notice : null;
}
