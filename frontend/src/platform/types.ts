/** One news article as the Go side sends it: markdown plus its rendered HTML. */
export interface Article {
  id: string;
  title: string;
  /** RFC 3339 timestamp. */
  date: string;
  /** The markdown source. */
  content: string;
  /** The whole article rendered to safe HTML by the Go side. */
  html: string;
  /** The first lines of the article rendered to safe HTML, with an ellipsis when cut. */
  preview: string;
}

/** The news list at one moment, as the Go hub holds it. */
export interface NewsSnapshot {
  articles: Article[];
  /** RFC 3339 time the list was last confirmed by the store; empty before it ever was. */
  asOf: string;
  /** False while the list comes from the offline cache rather than the live store. */
  live: boolean;
}

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
  /** Calls onUpdate with the news list now and after every change; returns the unsubscribe. */
  subscribeNews(onUpdate: (snapshot: NewsSnapshot) => void): () => void;
  /**
   * Calls onUpdate with the article now and after every change, or with null
   * while it does not exist; returns the unsubscribe.
   */
  subscribeArticle(id: string, onUpdate: (article: Article | null) => void): () => void;
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
}
