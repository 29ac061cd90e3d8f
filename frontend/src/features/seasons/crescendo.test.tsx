import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpandingCirclesEvery, ExpandingCirclesMax, Routes } from '../../gen/spec.gen';
import { crescendo } from './content';
import { setReducedMotion } from '../../shared/test-setup';
import Crescendo from './crescendo';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/crescendo']}>
      <Crescendo />
    </MemoryRouter>,
  );
}

const circles = () => document.querySelectorAll('.cres-circle').length;

/** Lets n intervals of ExpandingCirclesEvery pass, rendering after each as a browser does. */
function wait(n: number) {
  for (let i = 0; i < n; i++) act(() => vi.advanceTimersByTime(ExpandingCirclesEvery));
}

describe('Crescendo', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('has the route title and the 2024 game as its heading', () => {
    renderPage();
    expect(document.title).toBe(Routes['/crescendo'].title);
    expect(screen.getByRole('heading', { level: 1, name: crescendo.game })).toBeInTheDocument();
  });

  it('sends out a ring every ExpandingCirclesEvery ms, at most ExpandingCirclesMax', () => {
    renderPage();
    expect(circles()).toBe(1);
    wait(1);
    expect(circles()).toBe(2);
    wait(10);
    expect(circles()).toBe(ExpandingCirclesMax);
  });

  it('sends out no rings for visitors who prefer reduced motion', () => {
    setReducedMotion(true);
    renderPage();
    wait(10);
    expect(circles()).toBe(0);
  });

  it('clears the rings when the visitor asks for reduced motion', () => {
    renderPage();
    wait(1);
    expect(circles()).toBe(2);
    act(() => setReducedMotion(true));
    expect(circles()).toBe(0);
    wait(10);
    expect(circles()).toBe(0);
  });
});
