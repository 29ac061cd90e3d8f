import { useId, useState, type FocusEvent, type RefObject } from 'react';
import { usePrefersReducedMotion } from '../use-motion-preference';
import { useSlideshow } from './use-slideshow';
import { cssVars, ms } from '../css-vars';
import { SlideAnimation } from '../../gen/spec.gen';
import './slideshow.css';

/** One picture of a slideshow. */
export interface SlideImage {
  readonly src: string;
  /** What the picture shows, for visitors who cannot see it. */
  readonly alt: string;
}

interface SlideshowProps {
  images: readonly SlideImage[];
  /** The carousel's accessible name. */
  label: string;
  /** The element that moves with the page scroll (the banner's parallax layer). */
  layerRef?: RefObject<HTMLDivElement>;
}

/** Reports whether focus arrived by keyboard; a mouse click on a control does not pause. */
function keyboardFocus(target: Element): boolean {
  try {
    return target.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** The previous or next slide button of the carousel whose slides have the id slides. */
function StepButton({
  slides,
  step,
  onClick,
}: {
  slides: string;
  step: 'prev' | 'next';
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className="carousel__button"
      aria-controls={slides}
      aria-label={step === 'prev' ? 'Previous slide' : 'Next slide'}
      onClick={onClick}
    >
      <span className={`icon icon--${step}`} aria-hidden="true" />
    </button>
  );
}

/**
 * A rotating set of pictures following the WAI-ARIA carousel pattern: previous and
 * next buttons, one labelled picker button per slide, and a button that stops and
 * starts the rotation. Rotation also stops while keyboard focus is inside and for
 * visitors who prefer reduced motion. The state machine is slideshow-state.ts.
 */
export function Slideshow({ images, label, layerRef }: SlideshowProps) {
  const id = useId();
  const reducedMotion = usePrefersReducedMotion();
  const [stopped, setStopped] = useState(false);
  const [focused, setFocused] = useState(false);
  const rotating = !stopped && !reducedMotion && !focused;
  const { state, next, previous, select } = useSlideshow(images.length, rotating);
  const count = images.length;

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    if (keyboardFocus(event.target)) setFocused(true);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
  };

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={label}
      onFocus={onFocus}
      onBlur={onBlur}
      style={cssVars({ '--slide-animation': ms(SlideAnimation) })}
    >
      <div className="carousel__layer" ref={layerRef}>
        <div
          id={`${id}-slides`}
          className="carousel__slides"
          aria-live={rotating ? 'off' : 'polite'}
          data-direction={state.direction}
        >
          {images.map((image, i) => {
            const current = i === state.index;
            const classes = ['carousel__slide'];
            if (current) classes.push('is-current');
            if (i === state.leaving) classes.push('is-leaving');
            return (
              <div
                key={image.src}
                className={classes.join(' ')}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${count}`}
                aria-hidden={current ? undefined : true}
              >
                {/* The first picture is what the page paints first and largest:
                    fetched at once and first; the others when their turn nears.
                    React 18 has no fetchPriority prop: the attribute goes as
                    HTML spells it, which React passes on as it is. */}
                <img
                  src={image.src}
                  alt={image.alt}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  {...{ fetchpriority: i === 0 ? 'high' : 'low' }}
                  decoding="async"
                  draggable={false}
                />
              </div>
            );
          })}
        </div>
      </div>
      {count > 1 && (
        <div className="carousel__controls">
          {!reducedMotion && (
            <button
              type="button"
              className="carousel__button carousel__rotation"
              aria-label={stopped ? 'Start automatic slide show' : 'Stop automatic slide show'}
              onClick={() => setStopped((s) => !s)}
            >
              <span
                className={stopped ? 'icon icon--play' : 'icon icon--pause'}
                aria-hidden="true"
              />
            </button>
          )}
          <StepButton slides={`${id}-slides`} step="prev" onClick={previous} />
          <div className="carousel__picker" role="group" aria-label="Choose a slide">
            {images.map((image, i) => (
              <button
                key={image.src}
                type="button"
                className="carousel__dot"
                aria-controls={`${id}-slides`}
                aria-label={`Slide ${i + 1} of ${count}`}
                aria-current={i === state.index ? 'true' : undefined}
                onClick={() => select(i)}
              />
            ))}
          </div>
          <StepButton slides={`${id}-slides`} step="next" onClick={next} />
        </div>
      )}
    </section>
  );
}
