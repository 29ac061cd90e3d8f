// The news list and an article from "loading" to data and on to an update,
// through each real platform adapter: the browser's against a fake server
// (EventSource and fetch), the desktop window's against fake Wails bindings
// and runtime (window.go.main.App and window.runtime, as Wails injects them).
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { MemoryRouter, Route, Routes as RouterRoutes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatNewsDate } from './articles';
import { articleTitle, NewsDescription, Routes } from '../../gen/spec.gen';
import { PlatformContext, type Article, type NewsSnapshot, type Platform } from '../../platform';
import { browserPlatform } from '../../platform/browser';
import { desktopPlatform } from '../../platform/desktop';
import { NewsArticle } from './news-article';
import { NewsList } from './news-list';

const kickoff: Article = {
  id: 'kickoff-2025',
  title: 'Kickoff 2025',
  date: '2025-01-04T17:00:00Z',
  content: 'The **game** is out.',
  html: '<p>The <strong>game</strong> is out.</p>\n<p>We build now.</p>',
  preview: '<p>The <strong>game</strong> is out.</p>',
};

const regional: Article = {
  id: 'tulsa-regional',
  title: 'Tulsa Regional',
  date: '2025-03-20T14:30:00Z',
  content: 'We are *in*.',
  html: '<p>We are <em>in</em>.</p>',
  preview: '<p>We are <em>in</em>.</p>',
};

const kickoffEdited: Article = {
  ...kickoff,
  title: 'Kickoff 2025: REEFSCAPE',
  html: '<p>The game is <em>REEFSCAPE</em>.</p>',
  preview: '<p>The game is <em>REEFSCAPE</em>.</p>',
};

const first: NewsSnapshot = { articles: [kickoff], asOf: '2025-01-04T17:00:00Z', live: true };
const second: NewsSnapshot = {
  articles: [kickoffEdited, regional],
  asOf: '2025-03-20T14:30:00Z',
  live: true,
};

/** One platform adapter under test, with the host side the test drives. */
interface Host {
  platform: Platform;
  /** Delivers the news list as the host first sends it. */
  sendNews(snapshot: NewsSnapshot): Promise<void>;
  /** Delivers a later change of the news list. */
  updateNews(snapshot: NewsSnapshot): Promise<void>;
  /** Delivers article id as the host first sends it (found in snapshot). */
  sendArticle(id: string, snapshot: NewsSnapshot): Promise<void>;
  /** Delivers a later change of article id (found in snapshot). */
  updateArticle(id: string, snapshot: NewsSnapshot): Promise<void>;
}

/** A stand-in for the browser's EventSource: the test plays the server. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readonly url: string;
  readyState = FakeEventSource.OPEN;
  private readonly listeners = new Map<string, Set<(e: MessageEvent<string>) => void>>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }

  removeEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** Sends one server-sent event: `event: type` with `data: JSON`. */
  emit(type: string, data: unknown) {
    const event = new MessageEvent(type, { data: JSON.stringify(data) });
    this.listeners.get(type)?.forEach((listener) => listener(event));
  }

  /** The open stream at url. */
  static at(url: string): FakeEventSource {
    const source = FakeEventSource.opened.find(
      (s) => s.url === url && s.readyState !== FakeEventSource.CLOSED,
    );
    if (!source) throw new Error(`no open stream at ${url}`);
    return source;
  }
}

/** The browser adapter against a fake server: /api/time and the SSE streams. */
function browserHost(): Host {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ now: Date.now() }), { status: 200 })),
  );
  const sendNews = async (snapshot: NewsSnapshot) =>
    act(() => FakeEventSource.at('/api/news/stream').emit('news', snapshot));
  const sendArticle = async (id: string, snapshot: NewsSnapshot) =>
    act(() =>
      FakeEventSource.at(`/api/news/${id}/stream`).emit(
        'article',
        (snapshot.articles ?? []).find((a) => a.id === id) ?? null,
      ),
    );
  return {
    platform: browserPlatform(),
    sendNews,
    updateNews: sendNews,
    sendArticle,
    updateArticle: sendArticle,
  };
}

/** The desktop adapter against fake Wails bindings and runtime events. */
function desktopHost(): Host {
  const handlers = new Map<string, Set<(...data: unknown[]) => void>>();
  let answerNews: (snapshot: NewsSnapshot) => void = () => {
    throw new Error('News() was not called');
  };
  const app = {
    News: vi.fn(
      () =>
        new Promise<NewsSnapshot>((resolve) => {
          answerNews = resolve;
        }),
    ),
    Report: vi.fn(async () => {}),
    Interacted: vi.fn(async () => {}),
    Settings: vi.fn(async () => ({ startRoute: '/news', kiosk: false })),
  };
  const runtime = {
    EventsOnMultiple(name: string, callback: (...data: unknown[]) => void) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)?.add(callback);
      return () => handlers.get(name)?.delete(callback);
    },
    EventsOff(name: string) {
      handlers.delete(name);
    },
  };
  vi.stubGlobal('go', { main: { App: app } });
  vi.stubGlobal('runtime', runtime);
  const emit = (name: string, data: unknown) =>
    act(() => handlers.get(name)?.forEach((callback) => callback(data)));
  // The binding's promise answers the first call; a Go event brings each change.
  const sendNews = async (snapshot: NewsSnapshot) => {
    expect(app.News).toHaveBeenCalled();
    await act(async () => answerNews(snapshot));
  };
  const updateNews = async (snapshot: NewsSnapshot) => emit('news', snapshot);
  return {
    platform: desktopPlatform({ startRoute: '/news', kiosk: false, siteUrl: '' }),
    sendNews,
    updateNews,
    // The window has one news subscription; an article is picked from the list.
    sendArticle: (_id, snapshot) => sendNews(snapshot),
    updateArticle: (_id, snapshot) => updateNews(snapshot),
  };
}

/**
 * The set-up of each suite: the adapters' own timers (clock sync, heartbeat)
 * stay quiet; after each test the page, the timers and the stubbed globals
 * are reset.
 */
function quietAdapterTimers() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

function renderAt(host: Host, path: string) {
  return render(
    <PlatformContext.Provider value={host.platform}>
      <MemoryRouter initialEntries={[path]}>
        <RouterRoutes>
          <Route path="/news" element={<NewsList />} />
          <Route path="/news/:id" element={<NewsArticle />} />
        </RouterRoutes>
      </MemoryRouter>
    </PlatformContext.Provider>,
  );
}

const description = () =>
  document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

/** The list's items as the reader sees them: title, date, its datetime, preview HTML. */
function items() {
  return screen.getAllByRole('article').map((item) => {
    const time = item.querySelector('time');
    return {
      title: within(item).getByRole('heading').textContent,
      date: time?.textContent,
      dateTime: time?.getAttribute('datetime'),
      preview: item.querySelector('.news-item__preview')?.innerHTML,
      link: within(item).getByRole('link').getAttribute('href'),
    };
  });
}

describe.each([
  ['browser', browserHost],
  ['desktop', desktopHost],
])('news through the %s platform', (_, makeHost) => {
  quietAdapterTimers();

  it('shows the list loading, then the articles, then the change', async () => {
    const host = makeHost();
    renderAt(host, '/news');
    expect(document.title).toBe(Routes['/news'].title);
    expect(description()).toBe(NewsDescription);
    const list = screen.getByRole('region', { name: 'All news' });
    expect(list).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading the news…')).toBeInTheDocument();
    expect(screen.queryAllByRole('article')).toHaveLength(0);

    await host.sendNews(first);
    expect(list).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByText('Loading the news…')).toBeNull();
    expect(items()).toEqual([
      {
        title: 'Kickoff 2025',
        date: formatNewsDate(kickoff.date),
        dateTime: kickoff.date,
        preview: kickoff.preview,
        link: '/news/kickoff-2025',
      },
    ]);
    expect(formatNewsDate(kickoff.date)).toMatch(/^January \d, 2025/);

    await host.updateNews(second);
    // Newest first: the regional, then the edited kickoff.
    expect(items()).toEqual([
      {
        title: 'Tulsa Regional',
        date: formatNewsDate(regional.date),
        dateTime: regional.date,
        preview: regional.preview,
        link: '/news/tulsa-regional',
      },
      {
        title: 'Kickoff 2025: REEFSCAPE',
        date: formatNewsDate(kickoff.date),
        dateTime: kickoff.date,
        preview: kickoffEdited.preview,
        link: '/news/kickoff-2025',
      },
    ]);
  });

  it('shows an article loading, then its content, then its change', async () => {
    const host = makeHost();
    const { container } = renderAt(host, '/news/kickoff-2025');
    const busy = container.querySelector('.news-article');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('heading')).toBeNull();
    expect(document.title).toBe(Routes['/news'].title);
    expect(description()).toBe(NewsDescription);

    await host.sendArticle('kickoff-2025', first);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Kickoff 2025');
    const time = container.querySelector('time');
    expect(time).toHaveTextContent(formatNewsDate(kickoff.date));
    expect(time).toHaveAttribute('datetime', kickoff.date);
    expect(container.querySelector('.news-article__body')?.innerHTML).toBe(kickoff.html);
    expect(screen.getByRole('link', { name: '← All news' })).toHaveAttribute('href', '/news');
    expect(document.title).toBe(articleTitle('Kickoff 2025'));
    expect(description()).toBe('Kickoff 2025');

    await host.updateArticle('kickoff-2025', second);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Kickoff 2025: REEFSCAPE');
    expect(container.querySelector('.news-article__body')?.innerHTML).toBe(kickoffEdited.html);
    expect(document.title).toBe(articleTitle('Kickoff 2025: REEFSCAPE'));
  });

  it('shows nothing for an article that does not exist', async () => {
    const host = makeHost();
    const { container } = renderAt(host, '/news/no-such-article');
    await host.sendArticle('no-such-article', first);
    const empty = container.querySelector('.news-article');
    expect(empty).toHaveAttribute('aria-busy', 'false');
    expect(empty).toBeEmptyDOMElement();
  });
});

/** What each page showed in its first commit, before any effect ran: what a visitor sees first. */
let firstCommits: { page: string; busy: boolean; text: string }[] = [];

/** Records the document as its page first committed it (a layout effect runs before any effect). */
function FirstCommit({ page }: { page: string }) {
  useLayoutEffect(() => {
    firstCommits.push({
      page,
      busy: document.querySelector('[aria-busy="true"]') !== null,
      text: document.body.textContent ?? '',
    });
  }, [page]);
  return null;
}

/** Renders the news pages at path, each recording its first commit. */
function renderPages(platform: Platform, path: string) {
  return render(
    <PlatformContext.Provider value={platform}>
      <MemoryRouter initialEntries={[path]}>
        <RouterRoutes>
          <Route
            path="/news"
            element={
              <>
                <NewsList />
                <FirstCommit page="list" />
              </>
            }
          />
          <Route
            path="/news/:id"
            element={
              <>
                <NewsArticle />
                <FirstCommit page="article" />
              </>
            }
          />
        </RouterRoutes>
      </MemoryRouter>
    </PlatformContext.Provider>,
  );
}

/** Puts JSON in the head as the server inlines a page's data (internal/server/pages.go). */
function inline(id: string, text: string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = id;
  script.textContent = text;
  document.head.append(script);
}

/** JSON as Go's encoding/json writes it: <, > and & escaped, so it cannot end the script. */
const goJSON = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

describe('news inlined in the page by the server (browser)', () => {
  quietAdapterTimers();
  beforeEach(() => {
    firstCommits = [];
  });
  afterEach(() => {
    document.head.querySelectorAll('script[type="application/json"]').forEach((s) => s.remove());
    vi.restoreAllMocks();
  });

  it('shows the inlined list in its first render, then follows the stream', async () => {
    expect(goJSON(first)).not.toContain('<');
    inline('initial-news', goJSON(first));
    const host = browserHost();
    renderPages(host.platform, '/news');
    expect(firstCommits).toHaveLength(1);
    expect(firstCommits[0]).toMatchObject({ page: 'list', busy: false });
    expect(firstCommits[0].text).toContain('Kickoff 2025');
    expect(firstCommits[0].text).not.toContain('Loading');
    expect(items().map((item) => item.preview)).toEqual([kickoff.preview]);

    // The live stream still opens and brings the changes.
    await host.updateNews(second);
    expect(items().map((item) => item.title)).toEqual([
      'Tulsa Regional',
      'Kickoff 2025: REEFSCAPE',
    ]);
  });

  it('shows the inlined article in its first render, then follows the stream', async () => {
    inline('initial-article', goJSON(kickoff));
    const host = browserHost();
    const { container } = renderPages(host.platform, '/news/kickoff-2025');
    expect(firstCommits).toHaveLength(1);
    expect(firstCommits[0]).toMatchObject({ page: 'article', busy: false });
    expect(firstCommits[0].text).toContain('Kickoff 2025');
    expect(container.querySelector('.news-article__body')?.innerHTML).toBe(kickoff.html);
    expect(document.title).toBe(articleTitle('Kickoff 2025'));

    await host.updateArticle('kickoff-2025', second);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Kickoff 2025: REEFSCAPE');
  });

  it('uses an inlined article only for its own page', () => {
    inline('initial-article', goJSON(kickoff));
    const host = browserHost();
    renderPages(host.platform, '/news/tulsa-regional');
    expect(firstCommits[0]).toMatchObject({ page: 'article', busy: true });
    expect(firstCommits[0].text).not.toContain('Kickoff');
  });

  it.each([
    ['cut short', '{"articles":[{"id":"kickoff-2025"'],
    ['not JSON', '<p>oops</p>'],
    ['empty', ''],
    ['null', 'null'],
    ['the wrong shape', '{"articles":"none","asOf":"","live":true}'],
    ['an article without its HTML', goJSON({ ...first, articles: [{ id: 'x', title: 'X' }] })],
  ])('ignores inlined data that is %s, quietly, and waits for the stream', async (_, text) => {
    const complaints = [
      vi.spyOn(console, 'error').mockImplementation(() => {}),
      vi.spyOn(console, 'warn').mockImplementation(() => {}),
    ];
    inline('initial-news', text);
    inline('initial-article', text);
    const host = browserHost();
    renderPages(host.platform, '/news');
    expect(firstCommits[0]).toMatchObject({ page: 'list', busy: true });
    expect(screen.getByText('Loading the news…')).toBeInTheDocument();

    await host.sendNews(first);
    expect(items().map((item) => item.title)).toEqual(['Kickoff 2025']);
    expect(host.platform.currentArticle('x')).toBeUndefined();
    complaints.forEach((complaint) => expect(complaint).not.toHaveBeenCalled());
  });
});

describe.each([
  ['browser', browserHost],
  ['desktop', desktopHost],
])('coming back to news through the %s platform', (_, makeHost) => {
  quietAdapterTimers();
  beforeEach(() => {
    firstCommits = [];
  });

  it('shows a list seen before, and its articles, at once: never loading again', async () => {
    const host = makeHost();
    renderPages(host.platform, '/news');
    expect(firstCommits[0]).toMatchObject({ page: 'list', busy: true });
    await host.sendNews(first);

    fireEvent.click(screen.getByRole('link', { name: /^Read More/ }));
    expect(firstCommits[1]).toMatchObject({ page: 'article', busy: false });
    expect(firstCommits[1].text).toContain('We build now.');

    fireEvent.click(screen.getByRole('link', { name: '← All news' }));
    expect(firstCommits[2]).toMatchObject({ page: 'list', busy: false });
    expect(firstCommits[2].text).not.toContain('Loading');
    expect(items().map((item) => item.title)).toEqual(['Kickoff 2025']);
  });
});
