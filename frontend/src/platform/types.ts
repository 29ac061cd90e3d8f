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
  /** Calls onUpdate with the event status now (once known) and after every change; returns the unsubscribe. */
  subscribeEvent(onUpdate: (status: EventStatus) => void): () => void;
}

// The pit display's event data: internal/event/status.go, field for field.
// Times are RFC 3339 strings; null where Go has a nil pointer, and the zero
// time "0001-01-01T00:00:00Z" where Go has a zero time.Time (meaning none).
// Lists are null where Go has a nil slice.

/** A match's times (Nexus's estimates, or TBA's predicted/scheduled ones); null where unknown. */
export interface MatchTimes {
  queue: string | null;
  onDeck: string | null;
  onField: string | null;
  start: string | null;
  scheduled: string | null;
  /** When the match really started. */
  actualStart: string | null;
}

/** One match as the pit display shows it. */
export interface Match {
  /** TBA's match key, like "2026okok_qm14" ("" when only Nexus knows it). */
  key: string;
  /** The match's name exactly as Nexus gives it, like "Qualification 14". */
  label: string;
  /** Nexus's word: "Queuing soon", "Now queuing", "On deck", "On field", or "". */
  status: string;
  /** Our colour in this match: "red", "blue", or "" when we do not play it. */
  alliance: string;
  /** Team numbers of each alliance; an entry is "" while undecided (playoffs). */
  red: string[] | null;
  blue: string[] | null;
  /** Our alliance partners (our alliance less us). */
  partners: string[] | null;
  times: MatchTimes;
  /** The break after this match: "Break", "Lunch", "End of day", "Alliance selection", "Awards break" or "". */
  breakAfter: string;
  /** Final scores; null while unplayed. */
  redScore: number | null;
  blueScore: number | null;
  /** Ours when played: "win", "loss", "tie", or "". */
  result: string;
  /** The label of the match this one replays ("" when none). */
  replayOf: string;
}

/** A W-L-T record (Go's event.Record; not named Record, which would hide TypeScript's Record<K, V>). */
export interface WinLossRecord {
  wins: number;
  losses: number;
  ties: number;
}

/** Our place in the qualification rankings. */
export interface Rank {
  rank: number;
  of: number;
  record: WinLossRecord;
}

/** A message of the event staff to every team. */
export interface Announcement {
  id: string;
  text: string;
  /** RFC 3339. */
  posted: string;
}

/** A team asking the pits for a part. */
export interface PartsRequest {
  id: string;
  team: string;
  parts: string;
  /** RFC 3339. */
  posted: string;
}

/** One stream of the event. */
export interface Webcast {
  /** TBA's webcast type, like "twitch" or "youtube". */
  type: string;
  /** Where to watch it (https only). */
  url: string;
}

/** How one upstream (Nexus or TBA) is doing. */
export interface Source {
  /** "ok", "off" (no key), "key rejected", "event not found", "unreachable" or "down". */
  state: string;
  /** The state in words for the page, like "Nexus key rejected". */
  message: string;
  /** When this source last gave good data; the zero time when it never did. */
  asOf: string;
}

/** Everything the pit display shows, merged from Nexus and TBA (Go's event.Status). */
export interface EventStatus {
  /** False when no event is set; the page then explains how to set one. */
  configured: boolean;
  /** Our team number. */
  team: number;
  /** The TBA event key, like "2026okok"; nexusEventKey the one used with Nexus. */
  eventKey: string;
  nexusEventKey: string;
  /** The event's name ("" until known). */
  eventName: string;
  /** The event's IANA zone, like "America/Chicago" ("" until known). */
  timezone: string;
  /** Our first match not yet on field; null when none is left or the schedule is not out. */
  nextMatch: Match | null;
  /** Up to 2 of our matches after nextMatch, in order. */
  upcoming: Match[] | null;
  /** Up to 2 of our matches already on field or played, the latest first. */
  recent: Match[] | null;
  /** The match on the field now (any teams); null when unknown. */
  onField: Match | null;
  /** The label of the match Nexus says is queuing now ("" when none). */
  nowQueuing: string;
  /** Our ranking; null before rankings exist. */
  rank: Rank | null;
  /** Our pit address, like "B12" ("" when unknown). */
  pit: string;
  /** Newest first. */
  announcements: Announcement[] | null;
  /** The open parts requests, newest first. */
  partsRequests: PartsRequest[] | null;
  webcasts: Webcast[] | null;
  nexus: Source;
  tba: Source;
  /** The time of the newest data of either source; the zero time when there is none. */
  asOf: string;
  /** True when TBA lists this event's data feed as down. */
  feedDown: boolean;
}
