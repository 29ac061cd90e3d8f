import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakePlatform } from '../../shared/test-platform';
import expected from './expected-content.json';
import { PlatformContext } from '../../platform';
import { About } from './about';
import { Contact } from './contact';
import { Donate } from './donate';
import { Home } from './home';
import { Outreach } from './outreach';
import { Sponsors } from './sponsors';

function renderPage(page: ReactNode) {
  const fake = createFakePlatform(0);
  return render(
    <PlatformContext.Provider value={fake.platform}>
      <MemoryRouter>{page}</MemoryRouter>
    </PlatformContext.Provider>,
  );
}

const h2s = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('pages', () => {
  afterEach(cleanup);

  it.each([
    ['Home', Home, 'BTW ROBOTICS'],
    ['About', About, 'ABOUT US'],
    ['Contact', Contact, 'CONTACT US'],
    ['Outreach', Outreach, 'Outreach'],
    ['Sponsors', Sponsors, 'NEWS'],
    ['Donate', Donate, 'SUPPORT US'],
  ])('%s: the document title and the h1', (name, Page, h1) => {
    renderPage(<Page />);
    expect(document.title).toBe(`RoboHornets - ${name}`);
    expect(screen.getByRole('heading', { level: 1, name: h1 })).toBeInTheDocument();
  });

  it('Home: title, banner, then the sections in the spec order', () => {
    renderPage(<Home />);
    expect(h2s()).toEqual(expected.homeSections);
    expect(document.body).toHaveTextContent(/over 40 members/);
    expect(document.body).toHaveTextContent(/founded in 2003/);
    const learnMore = screen.getAllByRole('link', { name: /^Learn More about/ });
    expect(learnMore.map((a) => a.getAttribute('href'))).toEqual(['/reefscape', '/crescendo']);
    // Search engines read a link's text, not its aria-label: the words themselves name the game.
    expect(learnMore.map((a) => a.textContent)).toEqual([
      'Learn More about Reefscape',
      'Learn More about Crescendo',
    ]);
    learnMore.forEach((a) => expect(a).not.toHaveAttribute('aria-label'));
    expect(screen.getAllByText('2025')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Read More About our Team' })).toHaveAttribute(
      'href',
      '/about',
    );
  });

  it('About: the founding in 2002 and the meeting place', () => {
    renderPage(<About />);
    expect(document.body).toHaveTextContent(/founded in 2002 as a way to increase STEM/);
    expect(document.body).toHaveTextContent(/school without shop classes/);
    expect(document.body).toHaveTextContent(
      /meets Monday, Wednesday and Saturday at the University of Tulsa/,
    );
    expect(document.body).toHaveTextContent(/Shawnee and Tulsa regionals/);
  });

  it('Contact: two sponsors with placeholders, rooms 303 and 406, and Email Us', () => {
    renderPage(<Contact />);
    const cards = screen.getAllByRole('article').filter((a) => a.className === 'person-card');
    expect(cards).toHaveLength(2);
    cards.forEach((card, i) => {
      expect(within(card).getByRole('heading', { name: '{name}' })).toBeInTheDocument();
      expect(card).toHaveTextContent('Team Sponsor');
      expect(card).toHaveTextContent(`Room ${['303', '406'][i]}`);
      expect(within(card).getByRole('link', { name: '{email}' })).toHaveAttribute(
        'href',
        'mailto:{email}',
      );
    });
    expect(screen.getByRole('link', { name: 'Email Us' })).toHaveAttribute(
      'href',
      'mailto:{email}',
    );
  });

  it('Outreach: only the placeholder text', () => {
    renderPage(<Outreach />);
    expect(screen.getByText('outreach works!')).toBeInTheDocument();
  });

  it('Sponsors: a banner titled NEWS and nothing else', () => {
    const { container } = renderPage(<Sponsors />);
    expect(container.children).toHaveLength(1);
    expect(container.firstElementChild).toHaveClass('banner');
  });

  it('Donate: how to help and the email to write to', () => {
    renderPage(<Donate />);
    expect(screen.getByRole('heading', { name: 'Support the RoboHornets' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Email Us' })).toHaveAttribute(
      'href',
      'mailto:{email}',
    );
  });
});
