import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { usePlatform } from '../../platform';
import type { Article, EventStatus, Match } from '../../platform/types';
import {
  ageText,
  boardPhase,
  clockText,
  countdownFor,
  forecastText,
  opponentsOf,
  parseTime,
  partnersOf,
  playoffsOver,
  rankText,
  recordText,
  roleText,
  scoreText,
  warningsFor,
  webcastLinks,
} from '../../shared/event/status';
import {
  ifLoseText,
  ifWinText,
  nextLabel,
  outcomeText,
  seriesText,
} from '../../shared/event/words';
import { useNews } from '../../shared/use-news';
import { useNotice } from '../../shared/use-notice';
import { useNow } from '../../shared/use-now';
import { useRouteHead } from '../../shared/use-route-head';
import {
  dayIn,
  latestResult,
  matchClocks,
  resultWord,
  seasonDates,
  seasonResult,
  seasonWhen,
  startOf,
  whereText,
} from './follow-view';
import { NotifyMe } from './notify-me';
import { localChoices, type NotifyDeps } from './notify';
import { browserPush, serverPushApi } from './push-client';
import { useFollowEvent, useOnline } from './use-follow-event';
import { useServiceWorker } from './use-service-worker';
import './follow.css';

/** The site's palette for the browser's frame: the header's black. */
const themeColour = '#111111';

/**
 * Puts the install links in the head while the follow page is shown: the
 * manifest (only this page offers the app), the Home Screen icon and the
 * theme colour; takes them out after.
 */
function useInstallHead() {
  useEffect(() => {
    const added = [
      Object.assign(document.createElement('link'), {
        rel: 'manifest',
        href: '/manifest.webmanifest',
      }),
      Object.assign(document.createElement('link'), {
        rel: 'apple-touch-icon',
        href: '/icons/icon-192.png',
      }),
    ];
    document.head.append(...added);
    const theme = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
    const before = theme?.content;
    if (theme) theme.content = themeColour;
    return () => {
      added.forEach((el) => el.remove());
      if (theme && before !== undefined) theme.content = before;
    };
  }, []);
}

/** The real push boundary: the browser's PushManager and the server's API. */
const pushDeps: NotifyDeps = { browser: browserPush, api: serverPushApi, store: localChoices };

/**
 * /follow: the team's event day on a phone, for parents, fans and
 * sponsors: where we are, our next match in the viewer's time, our latest
 * result and standing, the playoffs, the pit's notice and the latest news,
 * live; installable, and readable offline from the last snapshot.
 */
export default function Follow({ push = pushDeps }: { push?: NotifyDeps }) {
  useRouteHead('/follow');
  useInstallHead();
  const platform = usePlatform();
  const update = useServiceWorker(platform.kind === 'browser');
  const { status, live } = useFollowEvent();
  const online = useOnline();
  const nowMs = useNow();
  const news = useNews();
  const notice = useNotice();
  const latest = useMemo(() => latestArticle(news?.articles ?? []), [news]);

  return (
    <div className="follow">
      {update.waiting && (
        <div className="follow-update" role="status">
          <p>New version of this page</p>
          <button type="button" className="follow-button" onClick={update.reload}>
            New version — reload
          </button>
        </div>
      )}
      <Summary status={status} nowMs={nowMs} live={live} online={online} />
      {notice && (
        <section className="follow-card follow-notice" aria-labelledby="follow-notice-title">
          <h2 id="follow-notice-title" className="follow-card__title">
            From the pit
          </h2>
          <p className="follow-notice__text">{notice.text}</p>
        </section>
      )}
      {status?.configured && <EventCards status={status} nowMs={nowMs} />}
      <NotifyMe deps={push} />
      {latest && <LatestNews article={latest} />}
      {status && (status.season ?? []).length > 0 && <Season status={status} nowMs={nowMs} />}
    </div>
  );
}

/** The newest article of the list, by date; null for none. */
function latestArticle(articles: readonly Article[]): Article | null {
  let best: Article | null = null;
  for (const a of articles) {
    if (!best || Date.parse(a.date) > Date.parse(best.date)) best = a;
  }
  return best;
}

/** The top: the event, where and which day, the webcast, and how fresh the data is. */
function Summary({
  status,
  nowMs,
  live,
  online,
}: {
  status: EventStatus | null;
  nowMs: number;
  live: boolean;
  online: boolean;
}) {
  if (status === null) {
    return (
      <header className="follow-summary" aria-busy="true">
        <p className="follow-summary__eyebrow">Follow team 1209</p>
        <h1 className="follow-summary__title">RoboHornets live</h1>
        <p className="follow-summary__where">
          {online ? 'Loading the event…' : 'You are offline.'}
        </p>
      </header>
    );
  }
  if (!status.configured) {
    return (
      <header className="follow-summary">
        <p className="follow-summary__eyebrow">Follow team {status.team || 1209}</p>
        <h1 className="follow-summary__title">Between events</h1>
        <p className="follow-summary__where">
          {status.message || 'We are not at an event right now.'} This page comes alive when we
          compete: turn on alerts below to hear when we do.
        </p>
      </header>
    );
  }
  const webcast = webcastLinks(status.webcasts)[0];
  const where = whereText(status, nowMs);
  const asOfMs = parseTime(status.asOf);
  const warnings = warningsFor(status, nowMs);
  const old = !online || (!live && asOfMs !== null);
  return (
    <header className="follow-summary">
      <p className="follow-summary__eyebrow">Team {status.team} is at</p>
      <h1 className="follow-summary__title">{status.eventName || status.eventKey}</h1>
      {where && <p className="follow-summary__where">{where}</p>}
      {webcast && (
        <a
          className="follow-button follow-watch"
          href={webcast.href}
          target="_blank"
          rel="noreferrer"
        >
          Watch live <span className="follow-watch__on">on {webcast.label}</span>
        </a>
      )}
      <p className={`follow-asof${old || status.stale ? ' follow-asof--old' : ''}`}>
        {asOfMs === null ? (
          'No data yet'
        ) : (
          <>
            As of <time dateTime={status.asOf}>{clockText(asOfMs, '')}</time> (
            {ageText(asOfMs, nowMs)})
          </>
        )}
        {!online && <strong className="follow-asof__flag"> · Offline: last saved</strong>}
        {online && !live && <span className="follow-asof__flag"> · connecting…</span>}
      </p>
      {warnings.length > 0 && (
        <div className="follow-warning" role="status">
          {warnings.map((w) => (
            <p key={w}>{w}</p>
          ))}
        </div>
      )}
    </header>
  );
}

/** The cards of a configured event for its phase. */
function EventCards({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const phase = boardPhase(status.phase);
  return (
    <>
      {phase === 'qualifications' && <NextMatchCard status={status} nowMs={nowMs} />}
      {phase !== 'qualifications' && <PlayoffsCard status={status} nowMs={nowMs} />}
      <StandingCard status={status} />
    </>
  );
}

/** A list of teams, ours in bold: "1209, 2363 and 4499". */
function Teams({ teams, team }: { teams: string[]; team: number }) {
  return (
    <>
      {teams.map((t, i) => (
        <span key={`${t}-${i}`}>
          {i > 0 && (i === teams.length - 1 ? ' and ' : ', ')}
          {t === String(team) ? <strong>{t}</strong> : t}
        </span>
      ))}
    </>
  );
}

/** A match's start as the viewer reads it, and as the event's clocks do when they differ. */
function MatchTimes({ match, timeZone }: { match: Match; timeZone: string }) {
  const ms = startOf(match);
  if (ms === null) return <p className="follow-match__time">Time not known yet</p>;
  const clocks = matchClocks(ms, timeZone);
  const kind = match.when?.kind === 'scheduled' ? 'scheduled' : 'about';
  return (
    <p className="follow-match__time">
      <span>
        {kind === 'about' ? 'About ' : 'Scheduled '}
        <time dateTime={new Date(ms).toISOString()}>
          <strong>{clocks.viewer}</strong>
        </time>{' '}
        your time
      </span>
      {clocks.event && <span className="follow-match__there">{clocks.event} at the event</span>}
    </p>
  );
}

/** One of our matches: its label, queue status, time, countdown, colour, partners and opponents. */
function MatchBody({ status, match, nowMs }: { status: EventStatus; match: Match; nowMs: number }) {
  const countdown = countdownFor(match, nowMs);
  const partners = partnersOf(match, status.team);
  const opponents = opponentsOf(match);
  return (
    <div className={`follow-match follow-match--${match.alliance || 'none'}`}>
      <p className="follow-match__label">
        <strong>{match.label}</strong>
        {match.status && (
          <span className={`follow-chip${match.urgent ? ' follow-chip--urgent' : ''}`}>
            {match.status}
          </span>
        )}
      </p>
      <MatchTimes match={match} timeZone={status.timezone} />
      {countdown && <p className="follow-match__countdown">{countdown.text}</p>}
      {match.alliance && (
        <p className="follow-match__colour">
          <span className="follow-dot" aria-hidden="true" />
          {match.alliance === 'red' ? 'Red' : 'Blue'} alliance
        </p>
      )}
      <dl className="follow-match__teams">
        {partners.length > 0 && (
          <div>
            <dt>With</dt>
            <dd>
              <Teams teams={partners} team={status.team} />
            </dd>
          </div>
        )}
        {opponents.length > 0 && (
          <div>
            <dt>Against</dt>
            <dd>
              <Teams teams={opponents} team={status.team} />
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/** Qualifications: our next match, or why there is none; what the field is queuing. */
function NextMatchCard({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const next = status.nextMatch;
  return (
    <section className="follow-card" aria-labelledby="follow-next-title">
      <h2 id="follow-next-title" className="follow-card__title">
        Our next match
      </h2>
      {next ? (
        <MatchBody status={status} match={next} nowMs={nowMs} />
      ) : (
        <p>
          {(status.recent ?? []).length > 0
            ? 'No more matches scheduled for us right now.'
            : 'Our match schedule is not out yet.'}
        </p>
      )}
      {status.nowQueuing && <p className="follow-fine">Field now queuing: {status.nowQueuing}</p>}
    </section>
  );
}

/** Our latest result, rank, record and forecast. */
function StandingCard({ status }: { status: EventStatus }) {
  const last = latestResult(status);
  const word = last && resultWord(last.result);
  const score = last && scoreText(last);
  if (!last && !status.rank) return null;
  return (
    <section className="follow-card" aria-labelledby="follow-standing-title">
      <h2 id="follow-standing-title" className="follow-card__title">
        How we’re doing
      </h2>
      {last && word && (
        <p className={`follow-result follow-result--${last.result}`}>
          <span className="follow-result__word">{word}</span>{' '}
          {score && <span className="follow-result__score">{score}</span>}{' '}
          <span className="follow-result__match">{last.label}</span>
        </p>
      )}
      {status.rank && (
        <p className="follow-rank">
          <strong>{rankText(status.rank)}</strong> · record {recordText(status.rank.record)}
        </p>
      )}
      {status.forecast && <p className="follow-fine">{forecastText(status.forecast)}</p>}
    </section>
  );
}

/** Selection and playoffs: our alliance, the next match and where a win or a loss leads, or how it ended. */
function PlayoffsCard({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const playoffs = status.playoffs;
  const ours = playoffs?.ours ?? null;
  const phase = boardPhase(status.phase);
  const over = playoffsOver(status);
  const outcome = playoffs && outcomeText(playoffs);
  const next = playoffs?.next ?? null;
  return (
    <section className="follow-card" aria-labelledby="follow-playoffs-title">
      <h2 id="follow-playoffs-title" className="follow-card__title">
        {phase === 'selection' ? 'Alliance selection' : 'Playoffs'}
      </h2>
      {ours ? (
        <p className="follow-alliance">
          <strong>Alliance {ours.number}</strong> · {roleText(ours.role)}
          {(ours.partners ?? []).length > 0 && (
            <>
              {' '}
              with <Teams teams={ours.partners ?? []} team={status.team} />
            </>
          )}
        </p>
      ) : (
        <p>
          {phase === 'selection' && !playoffs?.selectionDone
            ? 'The alliances are being formed.'
            : 'We are not on a playoff alliance. Thank you for cheering!'}
        </p>
      )}
      {outcome && (
        <p className={`follow-outcome follow-outcome--${playoffs?.outcome}`}>{outcome}</p>
      )}
      {!over && next && (
        <>
          <p className="follow-fine">
            Next: {nextLabel(next)}
            {seriesText(next) && ` · ${seriesText(next)}`}
          </p>
          <ul className="follow-routes">
            <li>{ifWinText(next)}</li>
            <li>{ifLoseText(next)}</li>
          </ul>
        </>
      )}
      {!over && status.nextMatch && (
        <MatchBody status={status} match={status.nextMatch} nowMs={nowMs} />
      )}
      {playoffs &&
        ours &&
        playoffs.record.wins + playoffs.record.losses + playoffs.record.ties > 0 && (
          <p className="follow-fine">Playoff record {recordText(playoffs.record)}</p>
        )}
    </section>
  );
}

/** The newest news post, linked. */
/** Our events of the season with their dates, and our result at those that are over. */
function Season({ status, nowMs }: { status: EventStatus; nowMs: number }) {
  const today = dayIn(nowMs, '');
  return (
    <section className="follow-card follow-season" aria-labelledby="follow-season-title">
      <h2 id="follow-season-title" className="follow-card__title">
        Our season
      </h2>
      <ol className="follow-season__list">
        {(status.season ?? []).map((e) => {
          const when = seasonWhen(e, today);
          const result = seasonResult(e);
          return (
            <li key={e.key} className={`follow-season__event follow-season__event--${when}`}>
              <p className="follow-season__name">{e.name || e.key}</p>
              <p className="follow-fine">
                {[
                  seasonDates(e),
                  e.place,
                  when === 'now' ? 'on now' : when === 'next' ? 'to come' : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {when !== 'next' && result.length > 0 && (
                <p className="follow-season__result">{result.join(' · ')}</p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function LatestNews({ article }: { article: Article }) {
  const ms = parseTime(article.date);
  return (
    <section className="follow-card" aria-labelledby="follow-news-title">
      <h2 id="follow-news-title" className="follow-card__title">
        Latest news
      </h2>
      <p className="follow-news__title">
        <Link to={`/news/${encodeURIComponent(article.id)}`}>{article.title}</Link>
      </p>
      {ms !== null && (
        <p className="follow-fine">
          <time dateTime={article.date}>
            {new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(ms)}
          </time>
        </p>
      )}
      {article.preview && (
        <div
          className="follow-news__preview"
          // The server's HTML, made safe there (internal/news/render.go), as the news list shows it.
          dangerouslySetInnerHTML={{ __html: article.preview }}
        />
      )}
    </section>
  );
}
