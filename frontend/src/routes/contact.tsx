import { Banner } from '../components/banner';
import { PersonCard } from '../components/person-card';
import { SocialBlock } from '../components/social-links';
import {
  buildSeasonAddress,
  contact,
  mailto,
  mapsLink,
  schoolAddress,
  team,
  teamSponsors,
  type Address,
} from '../content/site';
import { useRouteHead } from '../hooks/use-route-head';
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
  useRouteHead('/contact');
  return (
    <>
      <Banner title={contact.bannerTitle} />
      <div className="page">
        <section className="section" aria-labelledby="contact-sponsors">
          <h2 id="contact-sponsors">{contact.sponsorsHeading}</h2>
          <div className="card-grid">
            {teamSponsors.map((person) => (
              <PersonCard key={person.room} person={person} />
            ))}
          </div>
        </section>

        <section className="section" aria-labelledby="contact-addresses">
          <h2 id="contact-addresses">{contact.addressesHeading}</h2>
          <div className="card-grid">
            <AddressCard label={contact.schoolLabel} address={schoolAddress} />
            <AddressCard label={contact.buildSeasonLabel} address={buildSeasonAddress} />
          </div>
        </section>

        <section className="section cta" aria-labelledby="contact-email">
          <h2 id="contact-email">{contact.emailHeading}</h2>
          <p>{contact.emailText}</p>
          <a className="button" href={mailto(team.email)}>
            {contact.emailButton}
          </a>
        </section>

        <SocialBlock />
      </div>
    </>
  );
}
