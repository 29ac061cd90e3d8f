import { socialAccounts, socialBlock, team, type SocialKind } from './content';
import './social-links.css';

/** Original line icons, one per kind of account (not the services' logos). */
function SocialIcon({ kind }: { kind: SocialKind }) {
  const common = {
    viewBox: '0 0 24 24',
    width: 24,
    height: 24,
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
    'aria-hidden': true,
    focusable: false,
  };
  switch (kind) {
    case 'video':
      return (
        <svg {...common}>
          <rect x="2.5" y="5" width="19" height="14" rx="4" />
          <path d="M10 9.2v5.6l4.8-2.8z" fill="currentColor" />
        </svg>
      );
    case 'short-video':
      return (
        <svg {...common}>
          <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
          <path d="M10.5 9.5v5l4-2.5z" fill="currentColor" />
          <path d="M11 18.5h2" />
        </svg>
      );
    case 'photo':
      return (
        <svg {...common}>
          <path d="M4 8.5A2.5 2.5 0 0 1 6.5 6h1.8l1.4-2h4.6l1.4 2h1.8A2.5 2.5 0 0 1 20 8.5v9A2.5 2.5 0 0 1 17.5 20h-11A2.5 2.5 0 0 1 4 17.5z" />
          <circle cx="12" cy="13" r="3.6" />
        </svg>
      );
    case 'threads':
      return (
        <svg {...common}>
          <circle cx="12" cy="12" r="3.4" />
          <path d="M15.4 12v1.3a2.6 2.6 0 0 0 5.2 0V12a8.6 8.6 0 1 0-3.4 6.9" />
        </svg>
      );
  }
}

/** What a kind of account is called in its link's accessible name. */
const kindNames: Record<SocialKind, string> = {
  video: 'video channel',
  'short-video': 'short-video channel',
  photo: 'photos',
  threads: 'account',
};

/** The four social media links; each opens in a new tab. */
export function SocialLinks() {
  return (
    <ul className="social-links">
      {socialAccounts.map((account) => (
        <li key={account.kind}>
          <a
            className={`social-links__link social-links__link--${account.kind}`}
            href={account.href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${account.service}: ${team.name} ${kindNames[account.kind]} (opens in a new tab)`}
          >
            <SocialIcon kind={account.kind} />
            <span className="social-links__service" aria-hidden="true">
              {account.service}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The social media block at the bottom of Home and Contact. */
export function SocialBlock() {
  return (
    <section className="social-block" aria-labelledby="social-heading">
      <h2 id="social-heading">{socialBlock.heading}</h2>
      <p>{socialBlock.text}</p>
      <SocialLinks />
    </section>
  );
}
