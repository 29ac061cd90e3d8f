import { useEffect, type RefObject } from 'react';
import { ParallaxFactor, ParallaxScrollThrottle } from '../lib/spec.gen';
import { throttle } from '../lib/throttle';

/**
 * Moves layer down by ParallaxFactor of the page scroll, so it travels at half the
 * scroll distance, while its banner is on screen. Scroll handling is throttled to
 * ParallaxScrollThrottle ms. The transform is set through the CSSOM, which the
 * style-src CSP allows.
 */
export function useParallax(
  banner: RefObject<HTMLElement | null>,
  layer: RefObject<HTMLElement | null>,
  enabled: boolean,
): void {
  useEffect(() => {
    const el = layer.current;
    if (!el) return;
    if (!enabled) {
      el.style.transform = '';
      return;
    }
    const update = () => {
      const box = banner.current?.getBoundingClientRect();
      // Off screen the layer cannot be seen; skip the style write.
      if (box && box.bottom < 0) return;
      const offset = Math.max(0, window.scrollY) * ParallaxFactor;
      el.style.transform = `translate3d(0, ${offset.toFixed(1)}px, 0)`;
    };
    const onScroll = throttle(update, ParallaxScrollThrottle);
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      onScroll.cancel();
    };
  }, [banner, layer, enabled]);
}
