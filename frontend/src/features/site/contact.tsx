import { ContentPage, PageSection, TeamSponsorCards } from './content-page';
import { SocialBlock } from './social-links';
import {
  buildSeasonAddress,
  contact,
  mailto,
  mapsLink,
  schoolAddress,
  team,
  type Address,
} from './content';
import './pages.css';

function AddressCard({ label, address }: { label: string; address: Address }) {
  return (
    <article className="card address-card">
      <h3>{label}</h3>
      <address>
        <strong>{address.place}</strong>
        <br />
        {address.street}
        <br />
        {address.city}
      </address>
      <a
        className="button button--small button--ghost"
        href={mapsLink(address)}
        target="_blank"
        rel="noopener noreferrer"
      >
        Open in maps
        <span className="visually-hidden">: {address.place} (opens in a new tab)</span>
      </a>
    </article>
  );
}

/** The Contact page: the two team sponsors, our addresses and the team's email. */
export function Contact() {
  return (
    <ContentPage path="/contact" title={contact.bannerTitle}>
      <PageSection id="contact-sponsors" heading={contact.sponsorsHeading}>
        <TeamSponsorCards />
      </PageSection>

      <PageSection id="contact-addresses" heading={contact.addressesHeading}>
        <div className="card-grid">
          <AddressCard label={contact.schoolLabel} address={schoolAddress} />
          <AddressCard label={contact.buildSeasonLabel} address={buildSeasonAddress} />
        </div>
      </PageSection>

      <PageSection id="contact-email" heading={contact.emailHeading} className="cta">
        <p>{contact.emailText}</p>
        <a className="button" href={mailto(team.email)}>
          {contact.emailButton}
        </a>
      </PageSection>

      <SocialBlock />
    </ContentPage>
  );
}
