// A fake Platform for component tests: ticks only when the test says so.
import type { NewsSnapshot, Platform } from '../platform';

/** A Platform whose clock and ticks the test drives. */
export interface FakePlatform {
  platform: Platform;
  /** Sets the clock to nowMs and delivers one tick to every subscriber. */
  tick(nowMs: number): void;
  /** Sets the clock to nowMs without a tick (time passing between ticks). */
  set(nowMs: number): void;
  /** How many tick subscriptions are open. */
  tickSubscribers(): number;
}

/** Returns a fake Platform whose clock starts at startMs and whose news list is empty. */
export function createFakePlatform(startMs: number): FakePlatform {
  let now = startMs;
  const tickers = new Set<(nowMs: number) => void>();
  const snapshot: NewsSnapshot = { articles: [], asOf: '', live: true };
  const platform: Platform = {
    kind: 'browser',
    kiosk: false,
    subscribeNews(onUpdate) {
      onUpdate(snapshot);
      return () => {};
    },
    subscribeArticle(_id, onUpdate) {
      onUpdate(null);
      return () => {};
    },
    subscribeTicks(onTick) {
      tickers.add(onTick);
      return () => {
        tickers.delete(onTick);
      };
    },
    now: () => now,
    ready() {},
    subscribeKiosk: () => () => {},
    interacted() {},
  };
  return {
    platform,
    tick(nowMs) {
      now = nowMs;
      tickers.forEach((onTick) => onTick(nowMs));
    },
    set(nowMs) {
      now = nowMs;
    },
    tickSubscribers: () => tickers.size,
  };
}
