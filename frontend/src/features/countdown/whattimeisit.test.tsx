import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CelebrationInterval,
  CelebrationLength,
  ConfettiColors,
  ConfettiOriginY,
  ConfettiParticles,
  ConfettiSpread,
} from '../../gen/spec.gen';
import { createFakePlatform } from '../../shared/test-platform';
import { PlatformContext } from '../../platform';
import { setReducedMotion } from '../../shared/test-setup';
import WhatTimeIsIt from './whattimeisit';

// The confetti cannon draws on a canvas, which jsdom has not; count the bursts instead.
const confettiMock = vi.hoisted(() => {
  const fire = Object.assign(
    vi.fn(() => null),
    { reset: vi.fn() },
  );
  return { fire, create: vi.fn(() => fire) };
});
vi.mock('canvas-confetti', () => ({ default: { create: confettiMock.create } }));

/** The shared fake Platform, with ticks delivered inside act(). */
function fakePlatform(startMs: number) {
  const fake = createFakePlatform(startMs);
  return {
    platform: fake.platform,
    /** Moves the clock to ms and delivers a tick, as the host does each second. */
    tick: (ms: number) => act(() => fake.tick(ms)),
    /** Moves the clock without a tick (time passing between ticks). */
    set: fake.set,
    subscribers: fake.tickSubscribers,
  };
}

// 08:00:00 local time, on a whole second like the host's ticks.
const load = new Date(2025, 4, 14, 8, 0, 0).getTime();

function renderAt(path: string, fake = fakePlatform(load)) {
  const view = render(
    <PlatformContext.Provider value={fake.platform}>
      <MemoryRouter initialEntries={[path]}>
        <WhatTimeIsIt />
      </MemoryRouter>
    </PlatformContext.Provider>,
  );
  return { fake, view };
}

const text = (selector: string) => document.querySelector(selector)?.textContent ?? '';

describe('WhatTimeIsIt', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    confettiMock.fire.mockClear();
    confettiMock.create.mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts down from 10 s in debug mode, the default', () => {
    renderAt('/whattimeisit');
    expect(document.title).toBe('RoboHornets - What time is it?');
    expect(text('.wtii-clock')).toBe('08:00:00');
    expect(text('.wtii-facts time')).toBe('08:00:10');
    expect(text('.wtii-debug')).toBe('ON');
    expect(screen.getByRole('timer')).toHaveAccessibleName('10 seconds left');
    expect(text('.wtii-seconds-value')).toBe('10');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Countdown');
  });

  it('follows the ticks of the platform', () => {
    const { fake } = renderAt('/whattimeisit');
    fake.tick(load + 1000);
    expect(text('.wtii-clock')).toBe('08:00:01');
    expect(text('.wtii-seconds-value')).toBe('9');
    fake.tick(load + 9000);
    expect(text('.wtii-seconds-value')).toBe('1');
    expect(text('.wtii-seconds-unit')).toBe('second');
  });

  it('celebrates with confetti at the target, then stops after a minute', () => {
    const { fake } = renderAt('/whattimeisit');
    expect(confettiMock.create).toHaveBeenCalledWith(expect.any(HTMLCanvasElement), {
      resize: true,
      useWorker: false,
    });
    fake.tick(load + 10_000);
    expect(screen.getByRole('heading', { level: 1, name: 'What time is it?' })).toBeVisible();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(confettiMock.fire).toHaveBeenCalledTimes(1);
    expect(confettiMock.fire).toHaveBeenCalledWith({
      particleCount: ConfettiParticles,
      spread: ConfettiSpread,
      origin: { y: ConfettiOriginY },
      colors: [...ConfettiColors],
    });

    // A burst every 250 ms.
    fake.set(load + 10_000 + CelebrationInterval);
    act(() => vi.advanceTimersByTime(CelebrationInterval));
    expect(confettiMock.fire).toHaveBeenCalledTimes(2);
    fake.set(load + 10_000 + 4 * CelebrationInterval);
    act(() => vi.advanceTimersByTime(3 * CelebrationInterval));
    expect(confettiMock.fire).toHaveBeenCalledTimes(5);

    // No more bursts once the celebration length has passed, even between ticks.
    fake.set(load + 10_000 + CelebrationLength);
    act(() => vi.advanceTimersByTime(CelebrationInterval * 4));
    expect(confettiMock.fire).toHaveBeenCalledTimes(5);
  });

  it('celebrates without confetti for visitors who prefer reduced motion', () => {
    setReducedMotion(true);
    const { fake } = renderAt('/whattimeisit');
    fake.tick(load + 10_000);
    expect(screen.getByRole('heading', { level: 1, name: 'What time is it?' })).toBeVisible();
    fake.set(load + 10_000 + 4 * CelebrationInterval);
    act(() => vi.advanceTimersByTime(4 * CelebrationInterval));
    expect(confettiMock.fire).not.toHaveBeenCalled();
  });

  it('stops the confetti when the visitor asks for reduced motion mid-celebration', () => {
    const { fake } = renderAt('/whattimeisit');
    fake.tick(load + 10_000);
    expect(confettiMock.fire).toHaveBeenCalledTimes(1);
    act(() => setReducedMotion(true));
    fake.set(load + 10_000 + 4 * CelebrationInterval);
    act(() => vi.advanceTimersByTime(4 * CelebrationInterval));
    expect(confettiMock.fire).toHaveBeenCalledTimes(1);
  });

  it('resets to the next 12:09 after the celebration', () => {
    const { fake } = renderAt('/whattimeisit');
    fake.tick(load + 10_000);
    fake.tick(load + 10_000 + CelebrationLength - 1000);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('What time is it?');
    fake.tick(load + 10_000 + CelebrationLength);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Countdown');
    expect(text('.wtii-facts time')).toBe('12:09:00');
    expect(text('.wtii-debug')).toBe('ON');
  });

  it('turns debug mode off with ?debug=off and aims at 12:09', () => {
    renderAt('/whattimeisit?debug=off');
    expect(text('.wtii-debug')).toBe('OFF');
    expect(text('.wtii-facts time')).toBe('12:09:00');
    // 08:00:00 to 12:09:00
    expect(text('.wtii-seconds-value')).toBe((4 * 3600 + 9 * 60).toLocaleString('en-US'));
  });

  it('takes the time of day from ?at and ignores a bad one', () => {
    renderAt('/whattimeisit?debug=off&at=08:00:30');
    expect(text('.wtii-facts time')).toBe('08:00:30');
    expect(text('.wtii-seconds-value')).toBe('30');
    cleanup();
    renderAt('/whattimeisit?debug=off&at=25:00');
    expect(text('.wtii-facts time')).toBe('12:09:00');
  });

  it('announces at most once a minute, not every second', () => {
    const { fake } = renderAt('/whattimeisit?debug=off&at=08:03:00');
    const live = document.querySelector('[aria-live="polite"]');
    expect(live).toHaveTextContent('3 minutes to go.');
    const seen: Array<[number, string]> = [[0, live?.textContent ?? '']];
    // Through the target, the minute after it and the reset to tomorrow.
    for (let s = 1; s <= 250; s++) {
      fake.tick(load + s * 1000);
      const now = live?.textContent ?? '';
      if (seen.at(-1)?.[1] !== now) seen.push([s, now]);
    }
    expect(seen).toEqual([
      [0, '3 minutes to go.'],
      [60, '2 minutes to go.'],
      [120, 'Less than a minute to go.'],
      [180, 'What time is it? The countdown is over.'],
      [240, 'About 24 hours to go.'],
    ]);
  });

  it('stops listening to the clock and frees its canvas when it goes away', () => {
    const { fake, view } = renderAt('/whattimeisit');
    const canvas = view.container.querySelector('canvas');
    if (!canvas) throw new Error('no confetti canvas');
    expect(canvas.width).toBeGreaterThan(0);
    expect(fake.subscribers()).toBe(1);
    view.unmount();
    expect(fake.subscribers()).toBe(0);
    expect(confettiMock.fire.reset).toHaveBeenCalled();
    expect([canvas.width, canvas.height]).toEqual([0, 0]);
  });
});
