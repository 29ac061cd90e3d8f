import { Banner } from '../components/banner';
import { FactList } from '../components/fact-list';
import { about } from '../content/site';
import { useRouteHead } from '../hooks/use-route-head';
import './pages.css';

/** The About page: how the team began, build season, where it meets and competes. */
export function About() {
  useRouteHead('/about');
  return (
    <>
      <Banner title={about.bannerTitle} />
      <div className="page">
        <FactList facts={about.facts} label="The team at a glance" />
        {about.sections.map((section, i) => (
          <section
            key={section.heading}
            className="section section--story"
            aria-labelledby={`about-${i}`}
          >
            <h2 id={`about-${i}`}>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
      </div>
    </>
  );
}
