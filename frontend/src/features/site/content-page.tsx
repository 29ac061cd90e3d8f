import type { ReactNode } from 'react';
import { teamSponsors } from './content';
import { useRouteHead, type RoutePath } from '../../shared/use-route-head';
import { Banner, type BannerProps } from '../../shared/banner/banner';
import { PersonCard } from './person-card';

interface ContentPageProps extends BannerProps {
  /** The page's route, whose title and description go in the document head. */
  path: RoutePath;
  children: ReactNode;
}

/** A page of the site's content: its head, the banner, then its sections. */
export function ContentPage({ path, children, ...banner }: ContentPageProps) {
  useRouteHead(path);
  return (
    <>
      <Banner {...banner} />
      <div className="page">{children}</div>
    </>
  );
}

interface PageSectionProps {
  /** The id of the section's h2, which names it. */
  id: string;
  heading: string;
  /** Classes added to "section". */
  className?: string;
  children: ReactNode;
}

/** A section of a content page, under its h2. */
export function PageSection({ id, heading, className, children }: PageSectionProps) {
  return (
    <section className={className ? `section ${className}` : 'section'} aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {children}
    </section>
  );
}

/** The contact cards of the team sponsors, in a grid. */
export function TeamSponsorCards() {
  return (
    <div className="card-grid">
      {teamSponsors.map((person) => (
        <PersonCard key={person.room} person={person} />
      ))}
    </div>
  );
}
