import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Routes } from '../../gen/spec.gen';
import { setReducedMotion } from '../../shared/test-setup';
import Rebuilt from './rebuilt';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/rebuilt']}>
      <Rebuilt />
    </MemoryRouter>,
  );
}

/** The clip path of the first band: its wavy top edge. */
function firstBandEdge(): string {
  const band = document.querySelector<HTMLElement>('.rebuilt-band--1');
  if (!band) throw new Error('no first band');
  return band.style.clipPath;
}

/** Scrolls the page to y and lets the next animation frame run. */
function scrollPage(y: number) {
  vi.spyOn(window, 'scrollY', 'get').mockReturnValue(y);
  fireEvent.scroll(window);
  act(() => vi.advanceTimersByTime(16));
}

describe('Rebuilt', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
    // jsdom lays nothing out: give every band a size, so the waves can be drawn.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('has the route title', () => {
    renderPage();
    expect(document.title).toBe(Routes['/rebuilt'].title);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('rolls the wavy edges as the page scrolls', () => {
    renderPage();
    const before = firstBandEdge();
    expect(before).toMatch(/^path\(/);
    scrollPage(300);
    expect(firstBandEdge()).toMatch(/^path\(/);
    expect(firstBandEdge()).not.toBe(before);
  });

  it('keeps the edges still for visitors who prefer reduced motion', () => {
    setReducedMotion(true);
    renderPage();
    const before = firstBandEdge();
    expect(before).toMatch(/^path\(/);
    scrollPage(300);
    expect(firstBandEdge()).toBe(before);
  });
});
