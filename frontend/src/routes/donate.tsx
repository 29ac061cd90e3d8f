import { Banner } from '../components/banner';
import { InlineLink } from '../components/inline-link';
import { donate, mailto, team } from '../content/site';
import { useRouteHead } from '../hooks/use-route-head';
import './pages.css';

/** The Donate page: how to support the team, and the address to write to. */
export function Donate() {
  useRouteHead('/donate');
  return (
    <>
      <Banner title={donate.bannerTitle} />
      <div className="page">
        <section className="section section--intro" aria-labelledby="donate-heading">
          <h2 id="donate-heading">{donate.heading}</h2>
          <p className="lead">{donate.intro}</p>
        </section>
        <section className="section" aria-label="Ways to help">
          <div className="card-grid card-grid--four">
            {donate.ways.map((way) => (
              <article key={way.heading} className="card">
                <h3>{way.heading}</h3>
                <p>{way.text}</p>
              </article>
            ))}
          </div>
        </section>
        <section className="section cta" aria-label="Contact us to help">
          <p>
            {donate.contactText} <InlineLink href={mailto(team.email)}>{team.email}</InlineLink>.
          </p>
          <a className="button" href={mailto(team.email)}>
            {donate.button}
          </a>
        </section>
      </div>
    </>
  );
}
