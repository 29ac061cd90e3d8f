// The Notify-me control's state machine: what the control shows, and what
// checking, turning on, changing and turning off do, through the one push
// boundary (push-client.ts). Plain async functions of their dependencies,
// so tests drive them with a fake browser and a fake server.
import { assertNever } from '../../shared/assert-never';
import {
  PushApiError,
  type PushApi,
  type PushBrowser,
  type PushSubscriptionLike,
} from './push-client';

/** What a follower can be told about (the server's topic names). */
export type Topic = 'queuing' | 'results' | 'selection' | 'playoffs' | 'news';

/** Every topic, in the order the control lists them. */
export const topics: readonly Topic[] = ['queuing', 'results', 'selection', 'playoffs', 'news'];

/** The choices of a follower: the topics, and how many of our matches ahead a queue call comes (0: when we queue). */
export interface Choices {
  topics: Topic[];
  matchesAhead: number;
}

/** The choices the control starts with: everything, called when we queue. */
export const defaultChoices: Choices = { topics: [...topics], matchesAhead: 0 };

/** Why the control cannot offer push here. */
export type Unsupported =
  /** An iPhone or iPad in Safari: push only reaches an app added to the Home Screen. */
  | 'ios-not-installed'
  /** A browser without Web Push. */
  | 'no-push';

/** What the control shows. */
export type NotifyState =
  | { kind: 'checking' }
  | { kind: 'unsupported'; why: Unsupported }
  /** The follower blocked notifications for the site: only the browser's settings undo that. */
  | { kind: 'denied' }
  | { kind: 'off' }
  | { kind: 'working' }
  | { kind: 'on'; choices: Choices }
  /** Something failed: its words, and the choices still in force when alerts stayed on. */
  | { kind: 'error'; message: string; choices: Choices | null };

/** Where the control keeps the follower's choices: the server keeps them too, but has no read of them. */
export interface ChoiceStore {
  load(): Choices | null;
  save(choices: Choices | null): void;
}

/** What the state machine works through. */
export interface NotifyDeps {
  browser: PushBrowser;
  api: PushApi;
  store: ChoiceStore;
}

/** A URL-safe base64 string (padding optional) as bytes. */
export function base64UrlBytes(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Whether subscription was made with key (raw bytes); false when the browser does not say. */
function madeWith(subscription: PushSubscriptionLike, key: Uint8Array): boolean {
  const own = subscription.options?.applicationServerKey;
  if (!own) return false;
  const bytes = new Uint8Array(own);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** The words for a failure, for the follower. */
export function failureText(err: unknown): string {
  if (err instanceof PushApiError) {
    if (err.status === 0) return 'Could not reach our server. Check your connection and try again.';
    if (err.status === 404 || err.status === 501 || err.status === 503) {
      return 'Alerts are not available on our server right now. Try again later.';
    }
    if (err.status === 429) return 'Too many tries from your network. Wait a minute and try again.';
    return `Our server refused the request (error ${err.status}). Try again later.`;
  }
  if (err instanceof DOMException && err.name === 'NotAllowedError') {
    return 'Your browser did not allow notifications for this site.';
  }
  return 'Your browser could not set up alerts. Try again, or try another browser.';
}

/** What the control says for state, in a line. */
export function stateText(state: NotifyState): string {
  switch (state.kind) {
    case 'checking':
      return 'Checking your browser…';
    case 'unsupported':
      return state.why === 'ios-not-installed'
        ? 'On iPhone and iPad, alerts need the app: tap Share, then “Add to Home Screen”, open 1209 Live from there and come back here.'
        : 'This browser cannot receive alerts. Try Chrome, Edge or Firefox, or Safari from the Home Screen on an iPhone.';
    case 'denied':
      return 'Notifications are blocked for this site. Allow them in your browser’s site settings, then reload.';
    case 'off':
      return 'Alerts are off.';
    case 'working':
      return 'Working…';
    case 'on':
      return 'Alerts are on for this device.';
    case 'error':
      return state.message;
    default:
      return assertNever(state);
  }
}

/**
 * Where the control starts: push unsupported (Safari on iOS outside the
 * Home Screen app, or no Web Push), blocked, off, or on with the choices
 * kept. A subscription made with another key than the server's now (the
 * keys were rotated) is made again and sent with the same choices.
 */
export async function check(deps: NotifyDeps): Promise<NotifyState> {
  const support = deps.browser.support();
  if (!support.push) {
    return {
      kind: 'unsupported',
      why: support.ios && !support.standalone ? 'ios-not-installed' : 'no-push',
    };
  }
  if (deps.browser.permission() === 'denied') return { kind: 'denied' };
  const choices = deps.store.load() ?? defaultChoices;
  try {
    const subscription = await deps.browser.current();
    if (!subscription) return { kind: 'off' };
    const key = base64UrlBytes(await deps.api.key());
    if (madeWith(subscription, key)) return { kind: 'on', choices };
    await subscription.unsubscribe();
    return await send(deps, key, choices);
  } catch (err) {
    return { kind: 'error', message: failureText(err), choices: null };
  }
}

/** Subscribes with key (or keeps a subscription made with it) and sends the choices. */
async function send(deps: NotifyDeps, key: Uint8Array, choices: Choices): Promise<NotifyState> {
  let subscription = await deps.browser.current();
  if (subscription && !madeWith(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await deps.browser.subscribe(key);
  await deps.api.subscribe({
    subscription: subscription.toJSON(),
    topics: [...choices.topics],
    matchesAhead: choices.matchesAhead,
  });
  deps.store.save(choices);
  return { kind: 'on', choices };
}

/**
 * Turns alerts on with choices, or changes them: asks the permission when
 * not asked yet, subscribes with the server's key, sends the subscription
 * and the choices.
 */
export async function turnOn(deps: NotifyDeps, choices: Choices): Promise<NotifyState> {
  if (choices.topics.length === 0) {
    return { kind: 'error', message: 'Choose at least one kind of alert.', choices: null };
  }
  try {
    let permission = deps.browser.permission();
    if (permission === 'default') permission = await deps.browser.requestPermission();
    if (permission === 'denied') return { kind: 'denied' };
    if (permission !== 'granted') {
      return { kind: 'error', message: 'Notifications were not allowed.', choices: null };
    }
    return await send(deps, base64UrlBytes(await deps.api.key()), choices);
  } catch (err) {
    return { kind: 'error', message: failureText(err), choices: null };
  }
}

/** Turns alerts off: the server forgets the subscription, then the browser drops it. */
export async function turnOff(deps: NotifyDeps): Promise<NotifyState> {
  try {
    const subscription = await deps.browser.current();
    if (subscription) {
      await deps.api.unsubscribe(subscription.endpoint);
      await subscription.unsubscribe();
    }
    deps.store.save(null);
    return { kind: 'off' };
  } catch (err) {
    return { kind: 'error', message: failureText(err), choices: deps.store.load() };
  }
}

/** The localStorage key of the choices. */
const storageKey = 'robohornets.follow.alerts';

/** Whether value reads as choices. */
function isChoices(value: unknown): value is Choices {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Array.isArray(v.topics) &&
    v.topics.every((t) => topics.includes(t as Topic)) &&
    typeof v.matchesAhead === 'number' &&
    Number.isInteger(v.matchesAhead) &&
    v.matchesAhead >= 0 &&
    v.matchesAhead <= 3
  );
}

/** The choices in the browser's localStorage (none when it is not available). */
export const localChoices: ChoiceStore = {
  load() {
    try {
      const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
      return isChoices(value) ? value : null;
    } catch {
      return null;
    }
  },
  save(choices) {
    try {
      if (choices) localStorage.setItem(storageKey, JSON.stringify(choices));
      else localStorage.removeItem(storageKey);
    } catch {
      // private mode: the server still has them
    }
  },
};
