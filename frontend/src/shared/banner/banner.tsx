import { useId } from 'react';
import slide1 from './banner-2024-1.svg?no-inline';
import slide2 from './banner-2024-2.svg?no-inline';
import slide3 from './banner-2024-3.svg?no-inline';
import { usePrefersReducedMotion } from '../use-motion-preference';
import { useParallax } from './use-parallax';
import { cssVars, ms } from '../css-vars';
import { TitleLetterHoverStagger } from '../../gen/spec.gen';
import './banner.css';
import { Slideshow, type SlideImage } from './slideshow';
import { StaggeredLetters, VisuallyHidden } from '../staggered-text';

/** The default slideshow: the three 2024 banner pictures (docs/SPEC.md section 3). */
export const defaultBannerImages: readonly SlideImage[] = [
  {
    src: slide1,
    alt: 'Illustration: a gold and black robot driving across a competition field at night.',
  },
  {
    src: slide2,
    alt: 'Illustration: the team pit, with a robot on its cart under hexagon banners.',
  },
  {
    src: slide3,
    alt: 'Illustration: a robot launching a ring toward a glowing target on a stage.',
  },
];

export interface BannerProps {
  /** The page's title, shown as its h1. */
  title: string;
  /** The pictures of the slideshow; the three 2024 banner pictures when left out. */
  images?: readonly SlideImage[];
  /** A line under the title. */
  tagline?: string;
  /** 'full' fills the screen (home page); 'page' is a shorter page header. */
  size?: 'full' | 'page';
}

/**
 * The banner at the top of a page: a title whose letters recolour one after another
 * on hover, over a slideshow that scrolls at ParallaxFactor of the page (parallax).
 */
export function Banner({
  title,
  images = defaultBannerImages,
  tagline,
  size = 'page',
}: BannerProps) {
  const titleId = useId();
  const reducedMotion = usePrefersReducedMotion();
  const { banner: bannerRef, layer: layerRef } = useParallax(!reducedMotion);

  return (
    <section ref={bannerRef} className={`banner banner--${size}`} aria-labelledby={titleId}>
      {images.length > 0 ? (
        <Slideshow images={images} label={`${title} pictures`} layerRef={layerRef} />
      ) : (
        <div className="banner__plain" ref={layerRef} />
      )}
      <div className="banner__content">
        <h1
          id={titleId}
          className="banner__title"
          style={cssVars({ '--stagger': ms(TitleLetterHoverStagger) })}
        >
          <VisuallyHidden>{title}</VisuallyHidden>
          <StaggeredLetters text={title} />
        </h1>
        {tagline && <p className="banner__tagline">{tagline}</p>}
      </div>
    </section>
  );
}
