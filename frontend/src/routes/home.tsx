import { Link } from 'react-router';
import { Banner } from '../components/banner';
import { FactList } from '../components/fact-list';
import { PersonCard } from '../components/person-card';
import { SocialBlock } from '../components/social-links';
import { home, meetings, newMemberMeetings, teamSponsors } from '../content/site';
import { useRouteHead } from '../hooks/use-route-head';
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
  useRouteHead('/');
  return (
    <>
      <Banner title={home.bannerTitle} tagline={home.bannerTagline} size="full" />
      <div className="page">
        <section className="section section--intro" aria-labelledby="intro-heading">
          <h2 id="intro-heading">{home.intro.heading}</h2>
          {home.intro.paragraphs.map((p) => (
            <p key={p} className="lead">
              {p}
            </p>
          ))}
          <FactList facts={home.intro.facts} label="The team in numbers" />
        </section>

        <section className="section" aria-labelledby="joining-heading">
          <h2 id="joining-heading">{home.joining.heading}</h2>
          <p>{home.joining.text}</p>
          <div className="card-grid">
            {teamSponsors.map((person) => (
              <PersonCard key={person.room} person={person} />
            ))}
          </div>
        </section>

        <section className="section" aria-labelledby="meetings-heading">
          <h2 id="meetings-heading">{home.meetingsHeading}</h2>
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
        </section>

        <section className="section" aria-labelledby="build-heading">
          <h2 id="build-heading">{home.buildSeason.heading}</h2>
          <p>{home.buildSeason.text}</p>
          <FactList facts={home.buildSeason.steps} label="The season step by step" steps />
        </section>

        <section className="section" aria-labelledby="challenges-heading">
          <h2 id="challenges-heading">{home.challengesHeading}</h2>
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
        </section>

        <p className="section cta">
          <Link className="button" to="/about">
            {home.readMore}
          </Link>
        </p>

        <SocialBlock />
      </div>
    </>
  );
}
