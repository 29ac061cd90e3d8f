import { describe, expect, it, vi } from 'vitest';
import { PushApiError, type PushApi, type PushBrowser, type PushSupport } from './push-client';
import {
  base64UrlBytes,
  check,
  defaultChoices,
  stateText,
  turnOff,
  turnOn,
  type ChoiceStore,
  type Choices,
  type NotifyDeps,
} from './notify';

/** The server's key in the test, and another (after a rotation). */
const serverKey = 'BOrN-_0Q';
const oldKey = 'AAAA';

/** A fake subscription made with key. */
function subscription(endpoint: string, key: string) {
  return {
    endpoint,
    options: { applicationServerKey: base64UrlBytes(key).buffer as ArrayBuffer },
    toJSON: () => ({ endpoint, keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: vi.fn(async () => true),
  };
}

type Sub = ReturnType<typeof subscription>;

/** Fakes of the whole boundary: the browser's push, the server's API, the kept choices. */
function fakes(
  over: {
    support?: Partial<PushSupport>;
    permission?: NotificationPermission;
    answer?: NotificationPermission;
    current?: Sub | null;
    key?: () => Promise<string>;
    stored?: Choices | null;
  } = {},
) {
  let current = over.current ?? null;
  let permission = over.permission ?? 'default';
  let stored = over.stored ?? null;
  const browser = {
    support: () => ({ push: true, ios: false, standalone: false, ...over.support }),
    permission: () => permission,
    requestPermission: vi.fn(async () => (permission = over.answer ?? 'granted')),
    current: vi.fn(async () => current),
    subscribe: vi.fn(async (key: Uint8Array) => {
      current = subscription('https://push.example/new', btoa(String.fromCharCode(...key)));
      return current;
    }),
  } satisfies PushBrowser;
  const api = {
    key: vi.fn(over.key ?? (async () => serverKey)),
    subscribe: vi.fn(async () => {}),
    unsubscribe: vi.fn(async () => {}),
  } satisfies PushApi;
  const store: ChoiceStore = {
    load: () => stored,
    save: (c) => {
      stored = c;
    },
  };
  const deps: NotifyDeps = { browser, api, store };
  return { deps, browser, api, stored: () => stored, current: () => current };
}

const choices: Choices = { topics: ['queuing', 'results'], matchesAhead: 2 };

describe('check', () => {
  it('tells an iPhone in Safari to add the app to the Home Screen first', async () => {
    const { deps } = fakes({ support: { push: false, ios: true } });
    const state = await check(deps);
    expect(state).toEqual({ kind: 'unsupported', why: 'ios-not-installed' });
    expect(stateText(state)).toContain('Add to Home Screen');
  });

  it('says another browser cannot', async () => {
    const { deps } = fakes({ support: { push: false } });
    expect(await check(deps)).toEqual({ kind: 'unsupported', why: 'no-push' });
  });

  it('says when notifications are blocked', async () => {
    const { deps } = fakes({ permission: 'denied' });
    expect(await check(deps)).toEqual({ kind: 'denied' });
  });

  it('is off without a subscription, asking nothing', async () => {
    const { deps, browser, api } = fakes();
    expect(await check(deps)).toEqual({ kind: 'off' });
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(api.subscribe).not.toHaveBeenCalled();
  });

  it('is on with the kept choices when the subscription has the server’s key', async () => {
    const { deps, api } = fakes({
      permission: 'granted',
      current: subscription('https://push.example/a', serverKey),
      stored: choices,
    });
    expect(await check(deps)).toEqual({ kind: 'on', choices });
    expect(api.subscribe).not.toHaveBeenCalled();
  });

  it('subscribes again, with the same choices, when the server’s key changed', async () => {
    const old = subscription('https://push.example/old', oldKey);
    const { deps, browser, api, current } = fakes({
      permission: 'granted',
      current: old,
      stored: choices,
    });
    expect(await check(deps)).toEqual({ kind: 'on', choices });
    expect(old.unsubscribe).toHaveBeenCalled();
    expect(browser.subscribe).toHaveBeenCalledWith(base64UrlBytes(serverKey));
    expect(api.subscribe).toHaveBeenCalledWith({
      subscription: current()?.toJSON(),
      topics: ['queuing', 'results'],
      matchesAhead: 2,
    });
  });
});

describe('turnOn', () => {
  it('asks the permission, subscribes with the server’s key and sends the choices', async () => {
    const { deps, browser, api, stored } = fakes();
    expect(await turnOn(deps, choices)).toEqual({ kind: 'on', choices });
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith(base64UrlBytes(serverKey));
    expect(api.subscribe).toHaveBeenCalledWith({
      subscription: {
        endpoint: 'https://push.example/new',
        keys: { p256dh: 'p', auth: 'a' },
      },
      topics: ['queuing', 'results'],
      matchesAhead: 2,
    });
    expect(stored()).toEqual(choices);
  });

  it('keeps a subscription made with the server’s key when the choices change', async () => {
    const sub = subscription('https://push.example/a', serverKey);
    const { deps, browser, api } = fakes({ permission: 'granted', current: sub });
    await turnOn(deps, defaultChoices);
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(api.subscribe).toHaveBeenCalledWith(
      expect.objectContaining({ topics: ['queuing', 'results', 'selection', 'playoffs', 'news'] }),
    );
  });

  it('stops when the follower blocks notifications', async () => {
    const { deps, browser, api } = fakes({ answer: 'denied' });
    expect(await turnOn(deps, choices)).toEqual({ kind: 'denied' });
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(api.subscribe).not.toHaveBeenCalled();
  });

  it.each([
    [0, 'Could not reach our server'],
    [404, 'not available on our server'],
    [429, 'Wait a minute'],
    [500, 'error 500'],
  ])('says what failed: the API answers %s', async (status, words) => {
    const { deps } = fakes({
      key: async () => {
        throw new PushApiError(status, 'key');
      },
    });
    const state = await turnOn(deps, choices);
    expect(state.kind).toBe('error');
    expect(stateText(state)).toContain(words);
  });

  it('asks for a topic', async () => {
    const { deps, api } = fakes();
    const state = await turnOn(deps, { topics: [], matchesAhead: 0 });
    expect(stateText(state)).toBe('Choose at least one kind of alert.');
    expect(api.key).not.toHaveBeenCalled();
  });
});

describe('turnOff', () => {
  it('has the server forget the subscription, then drops it', async () => {
    const sub = subscription('https://push.example/a', serverKey);
    const { deps, api, stored } = fakes({ permission: 'granted', current: sub, stored: choices });
    expect(await turnOff(deps)).toEqual({ kind: 'off' });
    expect(api.unsubscribe).toHaveBeenCalledWith('https://push.example/a');
    expect(sub.unsubscribe).toHaveBeenCalled();
    expect(stored()).toBeNull();
  });

  it('keeps the subscription when the server cannot be told', async () => {
    const sub = subscription('https://push.example/a', serverKey);
    const { deps, api } = fakes({ permission: 'granted', current: sub, stored: choices });
    api.unsubscribe.mockRejectedValueOnce(new PushApiError(0, 'unsubscribe'));
    const state = await turnOff(deps);
    expect(state).toEqual({
      kind: 'error',
      message: 'Could not reach our server. Check your connection and try again.',
      choices,
    });
    expect(sub.unsubscribe).not.toHaveBeenCalled();
  });
});
