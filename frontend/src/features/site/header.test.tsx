/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { renderApp, setUpAppTests } from '../../test-app';

// The season and news pages belong to other parts of the site; stand-ins keep this
// test about the frame (header, footer, body class).
vi.mock('../seasons/reefscape', () => ({ default: () => <p>Reefscape page</p> }));
vi.mock('../news/news-list', () => ({ NewsList: () => <p>News list page</p> }));
vi.mock('../news/news-article', () => ({ NewsArticle: () => <p>News article page</p> }));

/** Loads the stylesheets that size the header and keep room for it, as the page does, for this test. */
function loadStyles(): void {
  const style = document.createElement('style');
  style.textContent = ['../../shared/global.css', './header.css']
    .map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'))
    .join('\n');
  document.head.append(style);
  onTestFinished(() => style.remove());
}

/**
 * How far below the top of the screen in-page links and keyboard focus put
 * things: the room kept for the sticky header. jsdom cascades custom
 * properties but leaves var() unresolved, so this resolves it.
 */
function scrollPaddingTop(): string {
  const root = getComputedStyle(document.documentElement);
  return root
    .getPropertyValue('scroll-padding-top')
    .replace(/var\((--[\w-]+)\)/g, (_, name: string) => root.getPropertyValue(name).trim());
}

function mainNav() {
  return screen.getByRole('navigation', { name: 'Main' });
}

describe('Header', () => {
  setUpAppTests();

  it('lists Home, News, Outreach, Sponsors, About, Contact in that order', async () => {
    await renderApp('/');
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

  it('marks Home current only on exactly /', async () => {
    await renderApp('/');
    const nav = within(mainNav());
    expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'About' })).not.toHaveAttribute('aria-current');
  });

  it('marks News current on an article and Home not', async () => {
    await renderApp('/news/kickoff-2025');
    const nav = within(mainNav());
    expect(nav.getByRole('link', { name: 'News' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('toggles the menu with the hamburger button and closes it on navigation', async () => {
    await renderApp('/');
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

  it('closes the menu on Escape and gives focus back to the button', async () => {
    await renderApp('/contact');
    const toggle = within(mainNav()).getByRole('button', { name: 'Menu' });
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('is shown on ordinary pages, and links and focus scroll below it', async () => {
    loadStyles();
    await renderApp('/about');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(scrollPaddingTop()).toBe('72px');
  });

  it('is hidden on /reefscape, and no room is kept for it there', async () => {
    loadStyles();
    await renderApp('/reefscape');
    expect(await screen.findByText('Reefscape page')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(scrollPaddingTop()).toBe('0px');
    // The footer stays.
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('gives the room back when the visitor leaves a season page', async () => {
    loadStyles();
    await renderApp('/reefscape');
    expect(await screen.findByText('Reefscape page')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(scrollPaddingTop()).toBe('72px');
  });

  it('has a skip link to the main content', async () => {
    await renderApp('/');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(document.getElementById('main')).not.toBeNull();
  });
});
