import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlatformContext } from '../../platform';
import type { Notice } from '../../platform/types';
import { NoticeBanner } from './notice-banner';
import { PitNoticeLine } from './notice-line';
import { createFakePlatform, type FakePlatform } from '../../shared/test-platform';

const t0 = Date.parse('2026-03-14T15:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function notice(text: string, untilMs: number, atMs = t0): Notice {
  return { text, until: iso(untilMs), by: '', at: iso(atMs) };
}

/** Renders ui on a fake platform and lets the page's load and idle time pass. */
function renderStarted(ui: React.ReactNode): FakePlatform {
  const fake = createFakePlatform(t0);
  render(<PlatformContext.Provider value={fake.platform}>{ui}</PlatformContext.Provider>);
  act(() => vi.runOnlyPendingTimers());
  return fake;
}

// Both parts follow the notice once the page is idle: in jsdom, after a timer the tests run.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('NoticeBanner', () => {
  it('follows the notice only once the page has loaded and is idle', () => {
    const fake = createFakePlatform(t0);
    render(
      <PlatformContext.Provider value={fake.platform}>
        <NoticeBanner />
      </PlatformContext.Provider>,
    );
    expect(fake.noticeSubscribers()).toBe(0);
    act(() => vi.runOnlyPendingTimers());
    expect(fake.noticeSubscribers()).toBe(1);
    cleanup();
    expect(fake.noticeSubscribers()).toBe(0);
  });

  it('shows nothing for an empty notice, and keeps the clock quiet', () => {
    const fake = renderStarted(<NoticeBanner />);
    act(() => fake.pushNotice({ text: '', until: '0001-01-01T00:00:00Z', by: '', at: iso(t0) }));
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    expect(fake.tickSubscribers()).toBe(0);
  });

  it('shows the notice in a status region until its expiry by the clock', () => {
    const fake = renderStarted(<NoticeBanner />);
    act(() => fake.pushNotice(notice('Pit closed for inspection', t0 + 60_000)));
    expect(screen.getByRole('status').textContent).toContain('Pit closed for inspection');
    act(() => fake.tick(t0 + 59_000));
    expect(screen.getByRole('status').textContent).toContain('Pit closed for inspection');
    // No word from the server: the page's clock takes it down.
    act(() => fake.tick(t0 + 60_000));
    expect(screen.getByRole('status').textContent).toBe('');
    expect(fake.tickSubscribers()).toBe(0);
  });

  it('never shows a notice that arrives expired', () => {
    const fake = renderStarted(<NoticeBanner />);
    act(() => fake.pushNotice(notice('Old news', t0 - 1)));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('takes the notice down when the server does', () => {
    const fake = renderStarted(<NoticeBanner />);
    act(() => fake.pushNotice(notice('Pit closed', t0 + 600_000)));
    act(() => fake.pushNotice({ text: '', until: '0001-01-01T00:00:00Z', by: '', at: iso(t0) }));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('PitNoticeLine', () => {
  it('shows the notice as text until its expiry', () => {
    const fake = renderStarted(<PitNoticeLine />);
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => fake.pushNotice(notice('<b>Back at 14:30</b>', t0 + 5000)));
    const line = screen.getByRole('status');
    expect(line.textContent).toBe('Notice <b>Back at 14:30</b>');
    expect(line.querySelector('b')).toBeNull();
    act(() => fake.tick(t0 + 5000));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
