import { NavLink } from 'react-router-dom';

const links = [
  { to: '/', label: 'Home' },
  { to: '/news', label: 'News' },
  { to: '/outreach', label: 'Outreach' },
  { to: '/sponsors', label: 'Sponsors' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;

/** The site header with the main navigation. */
export function Header() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <ul>
          {links.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.to === '/'}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
