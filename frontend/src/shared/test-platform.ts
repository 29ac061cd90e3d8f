// A fake Platform for component tests: ticks only when the test says so.
import type { NewsSnapshot, Platform } from '../platform';
import type { EventStatus, Notice } from '../platform/types';

/** A Platform whose clock and ticks the test drives. */
export interface FakePlatform {
  platform: Platform;
  /** Sets the clock to nowMs and delivers one tick to every subscriber. */
  tick(nowMs: number): void;
  /** Sets the clock to nowMs without a tick (time passing between ticks). */
  set(nowMs: number): void;
  /** How many tick subscriptions are open. */
  tickSubscribers(): number;
  /** Delivers status to every event subscriber, and to later ones at once (none before the first). */
  pushEvent(status: EventStatus): void;
  /** Delivers notice to every notice subscriber, and to later ones at once (none before the first). */
  pushNotice(notice: Notice): void;
  /** How many notice subscriptions are open. */
  noticeSubscribers(): number;
}

/** Returns a fake Platform whose clock starts at startMs and whose news list is empty. */
export function createFakePlatform(startMs: number): FakePlatform {
  let now = startMs;
  const tickers = new Set<(nowMs: number) => void>();
  const snapshot: NewsSnapshot = { articles: [], asOf: '', live: true };
  const eventSubscribers = new Set<(status: EventStatus) => void>();
  let eventStatus: EventStatus | undefined;
  const noticeSubscribers = new Set<(notice: Notice) => void>();
  let notice: Notice | undefined;
  const platform: Platform = {
    kind: 'browser',
    kiosk: false,
    siteUrl: null,
    subscribeNews(onUpdate) {
      onUpdate(snapshot);
      return () => {};
    },
    subscribeArticle(_id, onUpdate) {
      onUpdate(null);
      return () => {};
    },
    currentNews: () => snapshot,
    currentArticle: () => null,
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
    currentEvent: () => eventStatus,
    subscribeEvent(onUpdate) {
      eventSubscribers.add(onUpdate);
      if (eventStatus) onUpdate(eventStatus);
      return () => {
        eventSubscribers.delete(onUpdate);
      };
    },
    subscribeNotice(onUpdate) {
      noticeSubscribers.add(onUpdate);
      if (notice) onUpdate(notice);
      return () => {
        noticeSubscribers.delete(onUpdate);
      };
    },
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
    pushEvent(status) {
      eventStatus = status;
      eventSubscribers.forEach((onUpdate) => onUpdate(status));
    },
    pushNotice(n) {
      notice = n;
      noticeSubscribers.forEach((onUpdate) => onUpdate(n));
    },
    noticeSubscribers: () => noticeSubscribers.size,
  };
}
