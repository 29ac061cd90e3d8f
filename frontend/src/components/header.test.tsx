import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { App } from '../app';
import { PlatformContext } from '../platform';
import { createFakePlatform } from './test-platform';

// The season and news pages belong to other parts of the site; stand-ins keep this
// test about the frame (header, footer, body class).
vi.mock('../routes/reefscape', () => ({ default: () => <p>Reefscape page</p> }));
vi.mock('../routes/news-list', () => ({ NewsList: () => <p>News list page</p> }));
vi.mock('../routes/news-article', () => ({ NewsArticle: () => <p>News article page</p> }));

function renderApp(path: string) {
  const fake = createFakePlatform(Date.UTC(2025, 0, 4, 18, 9));
  return render(
    <PlatformContext value={fake.platform}>
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>
    </PlatformContext>,
  );
}

function mainNav() {
  return screen.getByRole('navigation', { name: 'Main' });
}

describe('Header', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    document.body.className = '';
  });

  it('lists Home, News, Outreach, Sponsors, About, Contact in that order', () => {
    renderApp('/');
    const links = within(mainNav()).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Home',
      'News',
      'Outreach',
      'Sponsors',
      'About',
      'Contact',
    ]);
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/',
      '/news',
      '/outreach',
      '/sponsors',
      '/about',
      '/contact',
    ]);
  });

  it('marks Home current only on exactly /', () => {
    renderApp('/');
    const nav = within(mainNav());
    expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'About' })).not.toHaveAttribute('aria-current');
  });

  it('marks News current on an article and Home not', () => {
    renderApp('/news/kickoff-2025');
    const nav = within(mainNav());
    expect(nav.getByRole('link', { name: 'News' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('toggles the menu with the hamburger button and closes it on navigation', () => {
    renderApp('/');
    const toggle = within(mainNav()).getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toHaveClass('is-open');

    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toHaveClass('is-open');

    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(toggle);
    fireEvent.click(within(mainNav()).getByRole('link', { name: 'About' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toHaveClass('is-open');
    expect(within(mainNav()).getByRole('link', { name: 'About' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'ABOUT US' })).toBeInTheDocument();
  });

  it('closes the menu on Escape and gives focus back to the button', () => {
    renderApp('/contact');
    const toggle = within(mainNav()).getByRole('button', { name: 'Menu' });
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('is shown with no body class on ordinary pages', () => {
    renderApp('/about');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(document.body).not.toHaveClass('no-header');
  });

  it('is hidden on /reefscape, where the body gets the no-header class', async () => {
    renderApp('/reefscape');
    expect(await screen.findByText('Reefscape page')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(document.body).toHaveClass('no-header');
    // The footer stays.
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('has a skip link to the main content', () => {
    renderApp('/');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(document.getElementById('main')).not.toBeNull();
  });
});
