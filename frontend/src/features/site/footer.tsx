import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import logo from './logo.svg?no-inline';
import { mailto, mapsLink, partnerLinks, schoolAddress, sitemap, team } from './content';
import { FooterClockRefresh } from '../../gen/spec.gen';
import { usePlatform } from '../../platform';
import { InlineLink } from './inline-link';
import './footer.css';

/** Formats epoch milliseconds as the local time of day, HH:mm. */
export function formatClock(nowMs: number): string {
  const d = new Date(nowMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The current time as HH:mm, refreshed every FooterClockRefresh ms from the
 * platform's tick source. The spec keeps it on the page but not visibly.
 */
function useFooterClock(): string {
  const platform = usePlatform();
  const [clock, setClock] = useState(() => formatClock(platform.now()));
  useEffect(() => {
    let slot = Math.floor(platform.now() / FooterClockRefresh);
    return platform.subscribeTicks((nowMs) => {
      const current = Math.floor(nowMs / FooterClockRefresh);
      if (current === slot) return;
      slot = current;
      setClock(formatClock(nowMs));
    });
  }, [platform]);
  return clock;
}

/** A column of the footer: a list of links (children, its items) under its heading. */
function FooterLinks({
  id,
  heading,
  children,
}: {
  id: string;
  heading: string;
  children: ReactNode;
}) {
  return (
    <nav className="site-footer__col" aria-labelledby={id}>
      <h2 id={id} className="site-footer__heading">
        {heading}
      </h2>
      <ul>{children}</ul>
    </nav>
  );
}

/** The footer of every page: who we are, how to reach us, the sitemap and partner links. */
export function Footer() {
  const clock = useFooterClock();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <section className="site-footer__team" aria-labelledby="footer-team">
          <img className="site-footer__logo" src={logo} alt="" width="56" height="56" />
          <h2 id="footer-team" className="site-footer__name">
            {team.name}
          </h2>
          <p className="site-footer__tagline">
            {team.program} Team {team.number} · {team.city}
          </p>
          <address className="site-footer__contact">
            <span className="site-footer__label">Email</span>
            <InlineLink href={mailto(team.email)}>{team.email}</InlineLink>
            <span className="site-footer__label">Address</span>
            <a href={mapsLink(schoolAddress)} target="_blank" rel="noopener noreferrer">
              {schoolAddress.street}, {schoolAddress.city}
              <span className="visually-hidden"> (map, opens in a new tab)</span>
            </a>
          </address>
        </section>
        <FooterLinks id="footer-sitemap" heading="Sitemap">
          {sitemap.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </FooterLinks>
        <FooterLinks id="footer-links" heading="Links">
          {partnerLinks.map((link) => (
            <li key={link.href}>
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </FooterLinks>
      </div>
      <p className="site-footer__bottom">{team.fullName}</p>
      <p className="visually-hidden" data-testid="footer-clock">
        Local time <time dateTime={clock}>{clock}</time>
      </p>
    </footer>
  );
}
