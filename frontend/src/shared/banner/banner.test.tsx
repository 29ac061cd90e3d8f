import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  KeyPressThrottle,
  ParallaxFactor,
  ParallaxScrollThrottle,
  SlideAnimation,
  SlideshowAutoAdvance,
} from '../../gen/spec.gen';
import { setReducedMotion } from '../test-setup';
import { Banner } from './banner';

const images = [
  { src: '/a.svg', alt: 'First picture' },
  { src: '/b.svg', alt: 'Second picture' },
  { src: '/c.svg', alt: 'Third picture' },
];

function slides() {
  const carousel = screen.getByRole('region', { name: 'BTW ROBOTICS pictures' });
  return Array.from(carousel.querySelectorAll('[aria-roledescription="slide"]'));
}

function currentSlide(): number {
  return slides().findIndex((s) => !s.hasAttribute('aria-hidden'));
}

/** The layer that moves with the page scroll (the parallax). */
function parallaxLayer(): HTMLElement {
  const layer = document.querySelector<HTMLElement>('.carousel__layer');
  if (!layer) throw new Error('no parallax layer');
  return layer;
}

/** Scrolls the page to y and lets the throttled scroll handler run. */
function scrollPage(y: number) {
  vi.spyOn(window, 'scrollY', 'get').mockReturnValue(y);
  fireEvent.scroll(window);
  act(() => vi.advanceTimersByTime(ParallaxScrollThrottle));
}

describe('Banner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the title as the page heading, letter by letter for the hover effect', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    const heading = screen.getByRole('heading', { level: 1, name: 'BTW ROBOTICS' });
    const letters = heading.querySelectorAll('.letters__char');
    expect(letters).toHaveLength('BTWROBOTICS'.length);
    // The space keeps its slot in the rhythm: R is the fourth letter but fifth in time.
    expect((letters[3] as HTMLElement).style.getPropertyValue('--i')).toBe('4');
    expect(heading.style.getPropertyValue('--stagger')).toBe('30ms');
  });

  it('follows the WAI-ARIA carousel pattern', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    const carousel = screen.getByRole('region', { name: 'BTW ROBOTICS pictures' });
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    expect(slides()).toHaveLength(3);
    slides().forEach((slide, i) => {
      expect(slide).toHaveAttribute('role', 'group');
      expect(slide).toHaveAttribute('aria-label', `${i + 1} of 3`);
    });
    expect(slides().map((s) => s.getAttribute('aria-hidden'))).toEqual([null, 'true', 'true']);
    expect(within(carousel).getByRole('img', { name: 'First picture' })).toBeInTheDocument();
    expect(within(carousel).getByRole('button', { name: 'Previous slide' })).toBeInTheDocument();
    expect(within(carousel).getByRole('button', { name: 'Next slide' })).toBeInTheDocument();
    const dots = within(carousel).getAllByRole('button', { name: /^Slide \d of 3$/ });
    expect(dots).toHaveLength(3);
    expect(dots[0]).toHaveAttribute('aria-current', 'true');
  });

  it('fetches the first picture at once and first, the others lazily', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    const pictures = slides().map((slide) => slide.querySelector('img'));
    expect(pictures.map((img) => img?.getAttribute('fetchpriority'))).toEqual([
      'high',
      'low',
      'low',
    ]);
    expect(pictures.map((img) => img?.getAttribute('loading'))).toEqual(['eager', 'lazy', 'lazy']);
  });

  it('advances every SlideshowAutoAdvance ms and wraps around', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    act(() => vi.advanceTimersByTime(SlideshowAutoAdvance - 1));
    expect(currentSlide()).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(currentSlide()).toBe(1);
    act(() => vi.advanceTimersByTime(2 * SlideshowAutoAdvance));
    expect(currentSlide()).toBe(0);
  });

  it('moves with the buttons, ignoring clicks while a slide animates', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    const next = screen.getByRole('button', { name: 'Next slide' });
    const previous = screen.getByRole('button', { name: 'Previous slide' });
    fireEvent.click(previous);
    expect(currentSlide()).toBe(2);
    fireEvent.click(next);
    expect(currentSlide()).toBe(2);
    act(() => vi.advanceTimersByTime(SlideAnimation));
    fireEvent.click(next);
    expect(currentSlide()).toBe(0);
  });

  it('jumps to a slide from the picker', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    fireEvent.click(screen.getByRole('button', { name: 'Slide 3 of 3' }));
    expect(currentSlide()).toBe(2);
    expect(screen.getByRole('button', { name: 'Slide 3 of 3' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  it('moves on Arrow keys, throttled, ignoring repeats, and restarts the timer', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(currentSlide()).toBe(1);
    act(() => vi.advanceTimersByTime(KeyPressThrottle));
    fireEvent.keyDown(window, { key: 'ArrowLeft', repeat: true });
    expect(currentSlide()).toBe(1);
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(currentSlide()).toBe(0);
    // The timer restarted with the last key: no move until SlideshowAutoAdvance after it.
    act(() => vi.advanceTimersByTime(SlideshowAutoAdvance - 1));
    expect(currentSlide()).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(currentSlide()).toBe(1);
  });

  it('leaves Arrow keys alone while the visitor types in a field', () => {
    render(
      <>
        <input aria-label="Search" />
        <Banner title="BTW ROBOTICS" images={images} />
      </>,
    );
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Search' }), { key: 'ArrowRight' });
    expect(currentSlide()).toBe(0);
  });

  it('stops and starts the rotation with its button', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop automatic slide show' }));
    act(() => vi.advanceTimersByTime(3 * SlideshowAutoAdvance));
    expect(currentSlide()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Start automatic slide show' }));
    act(() => vi.advanceTimersByTime(SlideshowAutoAdvance));
    expect(currentSlide()).toBe(1);
  });

  it('does not rotate for visitors who prefer reduced motion', () => {
    setReducedMotion(true);
    render(<Banner title="BTW ROBOTICS" images={images} />);
    expect(screen.queryByRole('button', { name: /automatic slide show/ })).toBeNull();
    // Two intervals: three moves of three slides would end where they began.
    act(() => vi.advanceTimersByTime(2 * SlideshowAutoAdvance));
    expect(currentSlide()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(currentSlide()).toBe(1);
  });

  it('stops and resumes the rotation when the visitor changes the setting', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    act(() => vi.advanceTimersByTime(SlideshowAutoAdvance));
    expect(currentSlide()).toBe(1);
    act(() => setReducedMotion(true));
    act(() => vi.advanceTimersByTime(2 * SlideshowAutoAdvance));
    expect(currentSlide()).toBe(1);
    act(() => setReducedMotion(false));
    act(() => vi.advanceTimersByTime(SlideshowAutoAdvance));
    expect(currentSlide()).toBe(2);
  });

  it('moves the pictures at ParallaxFactor of the page scroll', () => {
    render(<Banner title="BTW ROBOTICS" images={images} />);
    scrollPage(200);
    expect(parallaxLayer().style.transform).toBe(
      `translate3d(0, ${(200 * ParallaxFactor).toFixed(1)}px, 0)`,
    );
  });

  it('keeps the pictures still on scroll for visitors who prefer reduced motion', () => {
    setReducedMotion(true);
    render(<Banner title="BTW ROBOTICS" images={images} />);
    scrollPage(200);
    expect(parallaxLayer().style.transform).toBe('');
  });

  it('shows the three 2024 banner pictures by default', () => {
    render(<Banner title="NEWS" />);
    const carousel = screen.getByRole('region', { name: 'NEWS pictures' });
    expect(within(carousel).getAllByRole('img', { hidden: true })).toHaveLength(3);
  });
});
