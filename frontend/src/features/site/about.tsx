import { ContentPage, PageSection } from './content-page';
import { FactList } from './fact-list';
import { about } from './content';
import './pages.css';

/** The About page: how the team began, build season, where it meets and competes. */
export function About() {
  return (
    <ContentPage path="/about" title={about.bannerTitle}>
      <FactList facts={about.facts} label="The team at a glance" />
      {about.sections.map((section, i) => (
        <PageSection
          key={section.heading}
          id={`about-${i}`}
          heading={section.heading}
          className="section--story"
        >
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </PageSection>
      ))}
    </ContentPage>
  );
}
