import type { Article, EventStatus, NewsSnapshot, Notice } from '../gen/wire.gen';

// What crosses the wire is generated from the Go types (wire.gen.ts).
export type * from '../gen/wire.gen';

/** A command of the kiosk host to the page. */
export type KioskCommand =
  /** Show route (page rotation). */
  | { kind: 'navigate'; route: string }
  /** Dim the screen, or stop dimming it (night schedule). */
  | { kind: 'dim'; on: boolean };

/** What a page may ask of whichever host it runs in: the desktop window or a browser. */
export interface Platform {
  readonly kind: 'desktop' | 'browser';
  /** True on an unattended screen: the desktop window started with --kiosk. */
  readonly kiosk: boolean;
  /**
   * The public website's address as the window was given it (--site-url),
   * for the pit display's QR code; null in a browser, whose own origin is
   * the site, and in a window started without one.
   */
  readonly siteUrl: string | null;
  /** Calls onUpdate with the news list now and after every change; returns the unsubscribe. */
  subscribeNews(onUpdate: (snapshot: NewsSnapshot) => void): () => void;
  /**
   * Calls onUpdate with the article now and after every change, or with null
   * while it does not exist; returns the unsubscribe.
   */
  subscribeArticle(id: string, onUpdate: (article: Article | null) => void): () => void;
  /**
   * The news list as the host knows it this moment, without waiting: the
   * latest update, or the copy the server put in the page; undefined before
   * there is one. A view's first render starts from it, so it opens in its
   * final layout and a list seen before shows again at once.
   */
  currentNews(): NewsSnapshot | undefined;
  /**
   * Article id as the host knows it this moment, without waiting: the
   * article, null when it is known not to exist, undefined while unknown.
   */
  currentArticle(id: string): Article | null | undefined;
  /** Calls onTick once per wall-clock second with the current time in epoch milliseconds. */
  subscribeTicks(onTick: (nowMs: number) => void): () => void;
  /** The current time in epoch milliseconds, corrected to the host's clock. */
  now(): number;
  /** Tells the host a navigation has rendered, so it can see what the page shows. */
  ready(): void;
  /** Calls onCommand with each command of a kiosk host; a browser never sends any. */
  subscribeKiosk(onCommand: (command: KioskCommand) => void): () => void;
  /** Tells the host a person touched, clicked or typed; it pauses the page rotation. */
  interacted(): void;
  /**
   * The event status as the host knows it this moment, without waiting: the
   * latest update, or the copy the server put in the page; undefined before
   * there is one. A view's first render starts from it, like currentNews.
   */
  currentEvent(): EventStatus | undefined;
  /**
   * Calls onUpdate with the event status now (once an update came) and after
   * every change; returns the unsubscribe. The page's copy is not an update:
   * only currentEvent gives it.
   */
  subscribeEvent(onUpdate: (status: EventStatus) => void): () => void;
  /**
   * Calls onUpdate with the pit notice now (once known) and after every
   * change, its expiry too (an empty text is no notice); returns the unsubscribe.
   */
  subscribeNotice(onUpdate: (notice: Notice) => void): () => void;
}
