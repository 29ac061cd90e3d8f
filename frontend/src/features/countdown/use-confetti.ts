import confetti from 'canvas-confetti';
import { useEffect, useRef, type RefObject } from 'react';
import {
  CelebrationInterval,
  ConfettiColors,
  ConfettiOriginY,
  ConfettiParticles,
  ConfettiSpread,
} from '../../gen/spec.gen';
import { usePlatform } from '../../platform';

/**
 * A confetti cannon on the canvas the returned ref is given: a burst every
 * CelebrationInterval until the instant until (epoch ms), even between the
 * host's ticks; none while until is null. No worker: the site's script
 * policy allows no blob: workers, and the bursts are small.
 */
export function useConfetti(until: number | null): RefObject<HTMLCanvasElement> {
  const platform = usePlatform();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const fireRef = useRef<confetti.CreateTypes | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fire = confetti.create(canvas, { resize: true, useWorker: false });
    fireRef.current = fire;
    return () => {
      fireRef.current = null;
      fire.reset();
      // Free the full-screen backing store now; the engine's collector may
      // keep a detached canvas for a long time, and a kiosk mounts this page
      // again and again.
      canvas.width = 0;
      canvas.height = 0;
    };
  }, []);

  useEffect(() => {
    if (until === null) return;
    const colors = [...ConfettiColors];
    const burst = () => {
      if (platform.now() >= until) {
        clearInterval(timer);
        return;
      }
      void fireRef.current?.({
        particleCount: ConfettiParticles,
        spread: ConfettiSpread,
        origin: { y: ConfettiOriginY },
        colors,
      });
    };
    const timer = setInterval(burst, CelebrationInterval);
    burst();
    return () => clearInterval(timer);
  }, [until, platform]);

  return canvasRef;
}
