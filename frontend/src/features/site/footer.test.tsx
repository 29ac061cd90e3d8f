import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { team } from './content';
import expected from './expected-content.json';
import { FooterClockRefresh } from '../../gen/spec.gen';
import { PlatformContext } from '../../platform';
import { Footer, formatClock } from './footer';
import { createFakePlatform } from '../../shared/test-platform';

const start = new Date(2025, 0, 4, 12, 8, 58).getTime();

function renderFooter() {
  const fake = createFakePlatform(start);
  const view = render(
    <PlatformContext.Provider value={fake.platform}>
      <MemoryRouter>
        <Footer />
      </MemoryRouter>
    </PlatformContext.Provider>,
  );
  return { fake, view };
}

describe('formatClock', () => {
  it.each([
    [new Date(2025, 0, 4, 12, 9, 59).getTime(), '12:09'],
    [new Date(2025, 0, 4, 0, 0, 0).getTime(), '00:00'],
    [new Date(2025, 0, 4, 23, 5, 1).getTime(), '23:05'],
    [new Date(2025, 0, 4, 7, 30, 0).getTime(), '07:30'],
  ])('%s → %s', (ms, want) => {
    expect(formatClock(ms)).toBe(want);
  });
});

describe('Footer', () => {
  afterEach(cleanup);

  it('keeps a visually hidden HH:mm clock that follows the platform ticks', () => {
    const { fake } = renderFooter();
    const clock = screen.getByTestId('footer-clock');
    expect(clock).toHaveClass('visually-hidden');
    expect(clock).toHaveTextContent('12:08');
    expect(fake.tickSubscribers()).toBe(1);

    act(() => fake.tick(start + FooterClockRefresh));
    expect(clock).toHaveTextContent('12:08');
    act(() => fake.tick(start + 2 * FooterClockRefresh));
    expect(clock).toHaveTextContent('12:09');
    act(() => fake.tick(start + 62 * FooterClockRefresh));
    expect(clock).toHaveTextContent('12:10');
    expect(within(clock).getByText('12:10').tagName).toBe('TIME');
  });

  it('stops listening to ticks when it goes away', () => {
    const { fake, view } = renderFooter();
    expect(fake.tickSubscribers()).toBe(1);
    view.unmount();
    expect(fake.tickSubscribers()).toBe(0);
  });

  it('shows the team name, contact email and an address linking to a maps service', () => {
    renderFooter();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('heading', { name: team.name })).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: team.email })).toHaveAttribute(
      'href',
      `mailto:${team.email}`,
    );
    const address = within(footer).getByRole('link', { name: /Zion St/ });
    expect(address.getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\//);
    expect(address).toHaveAttribute('target', '_blank');
    expect(address).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('has a sitemap with Home, News, Outreach, About, Contact, Sponsors, Donate', () => {
    renderFooter();
    const sitemap = screen.getByRole('navigation', { name: 'Sitemap' });
    const links = within(sitemap).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual(expected.sitemap);
  });

  it('links to FIRST Robotics, the University of Tulsa and the high school in new tabs', () => {
    renderFooter();
    const nav = screen.getByRole('navigation', { name: 'Links' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent?.replace(' (opens in a new tab)', ''))).toEqual([
      'FIRST Robotics',
      'University of Tulsa',
      'Booker T. Washington High School',
    ]);
    for (const link of links) {
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });
});
