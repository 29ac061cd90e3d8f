import { useEffect } from 'react';
import { burnInShift } from './burn-in';
import { usePlatform } from '../../platform';

/** How long the mouse cursor stays after it last moved. */
const cursorHideAfterMs = 3000;

/**
 * What an unattended screen (--kiosk) adds to every page: it hides an idle
 * cursor, disables the context menu, and shifts the content a few pixels a
 * minute against burn-in. It renders nothing itself. Its style,
 * kiosk-layer.css, is loaded by app.tsx with the first load.
 */
export function KioskLayer() {
  const platform = usePlatform();

  useEffect(() => {
    const body = document.body;
    body.classList.add('kiosk');
    let cursorTimer: ReturnType<typeof setTimeout> | undefined;
    const showCursor = () => {
      body.classList.remove('kiosk-cursor-hidden');
      clearTimeout(cursorTimer);
      cursorTimer = setTimeout(() => body.classList.add('kiosk-cursor-hidden'), cursorHideAfterMs);
    };
    const noMenu = (event: Event) => event.preventDefault();
    const wakes = ['mousemove', 'pointerdown', 'keydown', 'touchstart'] as const;
    showCursor();
    wakes.forEach((type) => window.addEventListener(type, showCursor, { passive: true }));
    window.addEventListener('contextmenu', noMenu);
    return () => {
      clearTimeout(cursorTimer);
      wakes.forEach((type) => window.removeEventListener(type, showCursor));
      window.removeEventListener('contextmenu', noMenu);
      body.classList.remove('kiosk', 'kiosk-cursor-hidden');
    };
  }, []);

  useEffect(() => {
    let minute = NaN;
    const root = document.documentElement;
    return platform.subscribeTicks((nowMs) => {
      const m = Math.floor(nowMs / 60_000);
      if (m === minute) return;
      minute = m;
      const { x, y } = burnInShift(m, window.innerWidth, window.innerHeight);
      root.style.setProperty('--burn-in-x', `${x}px`);
      root.style.setProperty('--burn-in-y', `${y}px`);
    });
  }, [platform]);

  return null;
}
