import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import logo from './logo.svg?no-inline';
import { mainNav, team } from './content';
import './header.css';

/**
 * The site header: the team's mark and the main navigation. Under 1200px wide
 * (MenuCollapseBelow) the links fold into a menu behind a toggle button, which
 * closes again on navigation and on Escape.
 */
export function Header() {
  const { pathname } = useLocation();
  // The menu is open for the page it was opened on, so any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="site-header__inner">
        <Link to="/" className="brand">
          <img className="brand__logo" src={logo} alt="" width="44" height="44" />
          <span className="brand__text">
            <span className="brand__name">{team.name}</span>
            <span className="brand__number">FRC Team {team.number}</span>
          </span>
          <span className="visually-hidden">(home page)</span>
        </Link>
        <nav className="site-nav" aria-label="Main">
          <button
            ref={toggle}
            type="button"
            className="menu-toggle"
            aria-expanded={open}
            aria-controls="site-menu"
            aria-label="Menu"
            onClick={() => setOpenOn(open ? null : pathname)}
          >
            <span className="menu-toggle__bars" aria-hidden="true" />
            <span className="menu-toggle__label">Menu</span>
          </button>
          <ul id="site-menu" className={open ? 'site-nav__list is-open' : 'site-nav__list'}>
            {mainNav.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.to === '/'}
                  className="site-nav__link"
                  onClick={() => setOpenOn(null)}
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
