import { useEffect, useRef, type RefObject } from 'react';
import { ParallaxFactor, ParallaxScrollThrottle } from '../../gen/spec.gen';
import { throttle } from './throttle';

/** The elements a parallax effect needs: attach the refs to them. */
export interface ParallaxRefs {
  /** The banner: while it is on screen the layer moves. */
  banner: RefObject<HTMLElement>;
  /** The layer that moves with the page scroll. */
  layer: RefObject<HTMLDivElement>;
}

/**
 * Moves the layer down by ParallaxFactor of the page scroll, so it travels at half
 * the scroll distance, while its banner is on screen. Scroll handling is throttled
 * to ParallaxScrollThrottle ms. The transform is set through the CSSOM, which the
 * style-src CSP allows. Returns the refs to attach to the banner and the layer.
 */
export function useParallax(enabled: boolean): ParallaxRefs {
  const banner = useRef<HTMLElement>(null);
  const layer = useRef<HTMLDivElement>(null);
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
  }, [enabled]);
  return { banner, layer };
}
