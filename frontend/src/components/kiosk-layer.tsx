import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { burnInShift } from '../lib/burn-in';
import { usePlatform } from '../platform';
import './kiosk-layer.css';

/** How long the mouse cursor stays after it last moved. */
const cursorHideAfterMs = 3000;

/** At most one "a person is here" message to the host per this interval. */
const interactionReportMs = 1000;

/**
 * What an unattended screen adds to every page: it follows the host's page
 * rotation and night dimming, hides an idle cursor, disables the context
 * menu, tells the host about touches, clicks and keys (which pause the
 * rotation), and shifts the content a few pixels a minute against burn-in.
 * It renders nothing itself.
 */
export function KioskLayer() {
  const platform = usePlatform();
  const navigate = useNavigate();

  useEffect(
    () =>
      platform.subscribeKiosk((command) => {
        switch (command.kind) {
          case 'navigate':
            void navigate(command.route);
            break;
          case 'dim':
            document.body.classList.toggle('kiosk-dim', command.on);
            break;
        }
      }),
    [platform, navigate],
  );

  useEffect(() => {
    const body = document.body;
    body.classList.add('kiosk');
    let cursorTimer: ReturnType<typeof setTimeout> | undefined;
    let lastReport = -Infinity;
    const showCursor = () => {
      body.classList.remove('kiosk-cursor-hidden');
      clearTimeout(cursorTimer);
      cursorTimer = setTimeout(() => body.classList.add('kiosk-cursor-hidden'), cursorHideAfterMs);
    };
    const interact = (event: Event) => {
      showCursor();
      if (event.timeStamp - lastReport >= interactionReportMs) {
        lastReport = event.timeStamp;
        platform.interacted();
      }
    };
    const noMenu = (event: Event) => event.preventDefault();
    const interactions = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;
    showCursor();
    window.addEventListener('mousemove', showCursor, { passive: true });
    interactions.forEach((type) => window.addEventListener(type, interact, { passive: true }));
    window.addEventListener('contextmenu', noMenu);
    return () => {
      clearTimeout(cursorTimer);
      window.removeEventListener('mousemove', showCursor);
      interactions.forEach((type) => window.removeEventListener(type, interact));
      window.removeEventListener('contextmenu', noMenu);
      body.classList.remove('kiosk', 'kiosk-cursor-hidden', 'kiosk-dim');
    };
  }, [platform]);

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
