import { Link } from 'react-router';
import { ContentPage, PageSection, TeamSponsorCards } from './content-page';
import { FactList } from './fact-list';
import { SocialBlock } from './social-links';
import { home, meetings, newMemberMeetings } from './content';
import './pages.css';

const timeRange = /(\d{1,2}:\d{2}[AP]M-\d{1,2}:\d{2}[AP]M)/;

/** Renders a meeting time with its time range kept on one line. */
function MeetingTime({ text }: { text: string }) {
  return text.split(timeRange).map((part, i) =>
    i % 2 === 1 ? (
      <span key={i} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/** The home page: the BTW ROBOTICS banner, then who we are, joining, meetings and seasons. */
export function Home() {
  return (
    <ContentPage path="/" title={home.bannerTitle} tagline={home.bannerTagline} size="full">
      <PageSection id="intro-heading" heading={home.intro.heading} className="section--intro">
        {home.intro.paragraphs.map((p) => (
          <p key={p} className="lead">
            {p}
          </p>
        ))}
        <FactList facts={home.intro.facts} label="The team in numbers" />
      </PageSection>

      <PageSection id="joining-heading" heading={home.joining.heading}>
        <p>{home.joining.text}</p>
        <TeamSponsorCards />
      </PageSection>

      <PageSection id="meetings-heading" heading={home.meetingsHeading}>
        <div className="card-grid">
          {meetings.map((m) => (
            <article key={m.season} className="card schedule">
              <h3>
                {m.season} <span className="schedule__term">({m.term})</span>
              </h3>
              <ul>
                {m.times.map((t) => (
                  <li key={t}>
                    <MeetingTime text={t} />
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
        <p className="callout">{newMemberMeetings}</p>
      </PageSection>

      <PageSection id="build-heading" heading={home.buildSeason.heading}>
        <p>{home.buildSeason.text}</p>
        <FactList facts={home.buildSeason.steps} label="The season step by step" steps />
      </PageSection>

      <PageSection id="challenges-heading" heading={home.challengesHeading}>
        <div className="card-grid">
          {home.challenges.map((c) => (
            <article key={c.game} className={`card challenge challenge--${c.game.toLowerCase()}`}>
              <h3 className="challenge__heading">
                <span className="challenge__year">{c.year}</span>{' '}
                <span className="challenge__game">{c.game}</span>
              </h3>
              <p>{c.text}</p>
              <Link className="button button--small" to={c.to}>
                {home.learnMore(c.game)}
              </Link>
            </article>
          ))}
        </div>
      </PageSection>

      <p className="section cta">
        <Link className="button" to="/about">
          {home.readMore}
        </Link>{' '}
        <Link className="button" to="/follow">
          {home.followLive}
        </Link>
      </p>

      <SocialBlock />
    </ContentPage>
  );
}
