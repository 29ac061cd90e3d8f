import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { usePlatform } from '../../platform';

/** At most one "a person is here" message to the host per this interval. */
const interactionReportMs = 1000;

/**
 * Follows the host's commands (page rotation, night dimming) and tells it
 * about touches, clicks and keys, which pause the rotation. In a browser
 * there are no commands and the reports go nowhere.
 */
export function useHostCommands(): void {
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
    let lastReport = -Infinity;
    const interact = (event: Event) => {
      if (event.timeStamp - lastReport < interactionReportMs) return;
      lastReport = event.timeStamp;
      platform.interacted();
    };
    const types = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;
    types.forEach((type) => window.addEventListener(type, interact, { passive: true }));
    return () => types.forEach((type) => window.removeEventListener(type, interact));
  }, [platform]);
}
