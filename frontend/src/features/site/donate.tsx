import { ContentPage, PageSection } from './content-page';
import { InlineLink } from './inline-link';
import { donate, mailto, team } from './content';
import './pages.css';

/** The Donate page: how to support the team, and the address to write to. */
export function Donate() {
  return (
    <ContentPage path="/donate" title={donate.bannerTitle}>
      <PageSection id="donate-heading" heading={donate.heading} className="section--intro">
        <p className="lead">{donate.intro}</p>
      </PageSection>
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
    </ContentPage>
  );
}
