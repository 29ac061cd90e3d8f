import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { reefscape } from './content';
import { useRouteHead } from '../../shared/use-route-head';
import { layoutBubbles } from './bubbles';
import { timeLeft } from './time-left';
import { cssVars } from '../../shared/css-vars';
import { SeasonPageBubbles, Team } from '../../gen/spec.gen';
import { usePlatform } from '../../platform';
import './season.css';
import './reefscape.css';
import { SeasonHomeLink } from './season-home-link';

const bubbles = layoutBubbles(SeasonPageBubbles);
const kickoffMs = Date.parse(reefscape.kickoffAt);

/**
 * The current season page (docs/SPEC.md section 2, "Season page, current"):
 * rising bubbles, a logo pinned while the page scrolls, the kickoff stream
 * and game reveal links, and the season's safety animation.
 */
export default function Reefscape() {
  useRouteHead('/reefscape');
  const kickoffSeconds = useKickoffCountdown();
  const online = useOnline();
  const [streamLink, revealLink] = reefscape.links;

  return (
    // The kickoff countdown is computed but, as on the team's page, not shown.
    <div className="reef" data-kickoff-seconds={kickoffSeconds}>
      <Bubbles />
      <div className="reef-pin">
        <ReefLogo className="reef-logo" />
      </div>
      <SeasonHomeLink />

      <header className="reef-hero">
        <p className="season-kicker">
          {reefscape.year} season · FRC Team {Team}
        </p>
        <h1 className="season-heading reef-title">{reefscape.game}</h1>
        <p className="reef-tagline">{reefscape.tagline}</p>
        <p className="reef-hint" aria-hidden="true">
          Dive in <span className="reef-hint-arrow">↓</span>
        </p>
      </header>

      <section className="reef-card reef-links" aria-labelledby="reef-links-title">
        <h2 id="reef-links-title" className="season-heading reef-card-title">
          Kickoff {reefscape.year}
        </h2>
        <p className="reef-card-text">
          Relive the moment the {reefscape.game} game was revealed to teams around the world.
        </p>
        <ul className="reef-link-list">
          <li>
            <ExternalButton href={streamLink.href} icon="stream">
              {streamLink.label}
            </ExternalButton>
          </li>
          <li>
            <ExternalButton href={revealLink.href} icon="reveal">
              {revealLink.label}
            </ExternalButton>
          </li>
        </ul>
      </section>

      <section className="reef-card reef-video" aria-labelledby="reef-video-title">
        <h2 id="reef-video-title" className="season-heading reef-card-title">
          {reefscape.videoHeading}
        </h2>
        <div className="reef-video-frame">
          {online ? (
            <iframe
              className="reef-video-player"
              src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(reefscape.video.youtubeId)}?rel=0`}
              title={reefscape.video.title}
              loading="lazy"
              allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          ) : (
            <figure className="reef-poster">
              <SafetyPoster title={reefscape.video.title} />
              <figcaption className="reef-poster-caption">
                You’re offline. The video plays here once you’re back online.
              </figcaption>
            </figure>
          )}
        </div>
      </section>
    </div>
  );
}

/**
 * Seconds until kickoff, refreshed by the host's tick while kickoff is ahead.
 * The page keeps it but never shows it (docs/SPEC.md section 2).
 */
function useKickoffCountdown(): number {
  const platform = usePlatform();
  const [left, setLeft] = useState(() => timeLeft(platform.now(), kickoffMs));
  const reached = left.reached;
  useEffect(() => {
    if (reached) return;
    return platform.subscribeTicks((nowMs) => setLeft(timeLeft(nowMs, kickoffMs)));
  }, [platform, reached]);
  return Math.floor(left.totalMs / 1000);
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Reports navigator.onLine and follows the online and offline events. */
function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/** The rising bubbles behind the page; purely decorative. */
function Bubbles() {
  return (
    <div className="reef-bubbles" aria-hidden="true">
      {bubbles.map((b, i) => (
        <span
          key={i}
          className="reef-bubble-track"
          style={{
            left: `${b.leftPct}%`,
            animationDuration: `${b.durationS}s`,
            animationDelay: `${b.delayS}s`,
            // Where the bubble rests when motion is reduced: its place at load.
            ...cssVars({ '--rest': (100 - (-b.delayS / b.durationS) * 108).toFixed(1) }),
          }}
        >
          <span
            className="reef-bubble"
            style={{
              width: b.sizePx,
              height: b.sizePx,
              opacity: b.opacity,
              animationDuration: `${Math.max(2, b.durationS / 4).toFixed(2)}s`,
              ...cssVars({ '--sway': `${b.swayPx}px` }),
            }}
          />
        </span>
      ))}
    </div>
  );
}

interface ExternalButtonProps {
  href: string;
  icon: 'stream' | 'reveal';
  children: string;
}

/** A big link to another site, opened in a new tab. */
function ExternalButton({ href, icon, children }: ExternalButtonProps) {
  const host = new URL(href).hostname.replace(/^www\./, '');
  return (
    <a className="reef-button" href={href} target="_blank" rel="noopener noreferrer">
      <svg className="reef-button-icon" viewBox="0 0 24 24" aria-hidden="true">
        {icon === 'stream' ? (
          <>
            <rect x="2.5" y="5" width="19" height="13" rx="2.5" />
            <path d="M10 8.8v5.4l4.6-2.7z" className="reef-button-glyph" />
          </>
        ) : (
          <path
            d="M12 2.5l2.2 6.3 6.3 2.2-6.3 2.2L12 19.5l-2.2-6.3L3.5 11l6.3-2.2z"
            className="reef-button-glyph"
          />
        )}
      </svg>
      <span className="reef-button-text">
        <span className="reef-button-label">{children}</span>
        <span className="reef-button-host">
          {host} <span aria-hidden="true">↗</span>
          <span className="visually-hidden"> (opens in a new tab)</span>
        </span>
      </span>
    </a>
  );
}

/** Makes a useId value safe inside url(#…) references. */
function useSvgId(): string {
  return `reef${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

/** The season badge: a RoboHornet over the reef. Original artwork. */
function ReefLogo({ className }: { className?: string }) {
  const id = useSvgId();
  return (
    <svg
      className={className}
      viewBox="0 0 240 240"
      role="img"
      aria-label={`RoboHornets ${Team} Reefscape badge`}
    >
      <defs>
        <radialGradient id={`${id}-sea`} cx="50%" cy="30%" r="75%">
          <stop offset="0" stopColor="#2bb3c8" />
          <stop offset="0.55" stopColor="#0d5d7e" />
          <stop offset="1" stopColor="#062a40" />
        </radialGradient>
        <clipPath id={`${id}-inside`}>
          <circle cx="120" cy="120" r="98" />
        </clipPath>
        <clipPath id={`${id}-abdomen`}>
          <ellipse cx="120" cy="150" rx="25" ry="34" />
        </clipPath>
      </defs>
      <circle cx="120" cy="120" r="116" fill="#111" />
      <circle cx="120" cy="120" r="106" fill="none" stroke="#f5b700" strokeWidth="8" />
      <circle cx="120" cy="120" r="98" fill={`url(#${id}-sea)`} />
      <g clipPath={`url(#${id}-inside)`}>
        {/* light rays */}
        <path d="M70 20 L96 20 L70 200 L30 200Z" fill="#fff" opacity="0.06" />
        <path d="M140 20 L160 20 L190 200 L150 200Z" fill="#fff" opacity="0.05" />
        {/* coral */}
        <path
          d="M34 218 C34 190 40 176 48 168 M48 168 C44 160 46 150 52 146 M48 168 C56 162 64 164 66 154 M60 218 C60 196 66 186 74 180 M74 180 C72 170 78 164 84 164"
          fill="none"
          stroke="#ff7a59"
          strokeWidth="7"
          strokeLinecap="round"
        />
        <path
          d="M200 218 C200 192 196 180 186 172 M186 172 C190 162 186 154 180 150 M186 172 C176 168 170 170 166 160"
          fill="none"
          stroke="#ff4fa3"
          strokeWidth="7"
          strokeLinecap="round"
        />
        {/* waves */}
        <path
          d="M0 196 Q20 186 40 196 T80 196 T120 196 T160 196 T200 196 T240 196 V240 H0Z"
          fill="#0a3d57"
        />
        <path
          d="M0 206 Q20 198 40 206 T80 206 T120 206 T160 206 T200 206 T240 206 V240 H0Z"
          fill="#072c40"
        />
        {/* bubbles */}
        <g fill="none" stroke="#bff3ff" strokeWidth="2" opacity="0.8">
          <circle cx="178" cy="70" r="6" />
          <circle cx="190" cy="98" r="4" />
          <circle cx="60" cy="92" r="5" />
          <circle cx="70" cy="64" r="3" />
        </g>
      </g>
      {/* the hornet */}
      <g transform="translate(0 -12)">
        <g fill="#fff" fillOpacity="0.78" stroke="#111" strokeWidth="3">
          <ellipse cx="90" cy="104" rx="32" ry="14" transform="rotate(-28 90 104)" />
          <ellipse cx="150" cy="104" rx="32" ry="14" transform="rotate(28 150 104)" />
          <ellipse cx="96" cy="122" rx="22" ry="10" transform="rotate(-8 96 122)" />
          <ellipse cx="144" cy="122" rx="22" ry="10" transform="rotate(8 144 122)" />
        </g>
        <path
          d="M112 72 Q102 52 90 50 M128 72 Q138 52 150 50"
          fill="none"
          stroke="#111"
          strokeWidth="4"
          strokeLinecap="round"
        />
        <circle cx="90" cy="50" r="4" fill="#f5b700" stroke="#111" strokeWidth="2" />
        <circle cx="150" cy="50" r="4" fill="#f5b700" stroke="#111" strokeWidth="2" />
        <ellipse cx="120" cy="150" rx="25" ry="34" fill="#f5b700" />
        <g clipPath={`url(#${id}-abdomen)`} fill="#111">
          <rect x="90" y="134" width="60" height="8" />
          <rect x="90" y="150" width="60" height="8" />
          <rect x="90" y="166" width="60" height="9" />
        </g>
        <ellipse cx="120" cy="150" rx="25" ry="34" fill="none" stroke="#111" strokeWidth="3" />
        <path d="M114 182 L120 198 L126 182Z" fill="#111" />
        <ellipse cx="120" cy="106" rx="17" ry="16" fill="#111" />
        <circle cx="120" cy="80" r="14" fill="#f5b700" stroke="#111" strokeWidth="3" />
        <ellipse cx="113" cy="80" rx="4" ry="6" fill="#111" />
        <ellipse cx="127" cy="80" rx="4" ry="6" fill="#111" />
      </g>
      {/* ribbon */}
      <g>
        <path
          d="M52 192 H188 L180 206 L188 220 H52 L60 206Z"
          fill="#f5b700"
          stroke="#111"
          strokeWidth="3"
        />
        <text
          x="120"
          y="213"
          textAnchor="middle"
          fontFamily="system-ui, 'Segoe UI', Roboto, Arial, sans-serif"
          fontSize="20"
          fontWeight="900"
          letterSpacing="4"
          fill="#111"
        >
          {Team}
        </text>
      </g>
    </svg>
  );
}

/** What stands in for the video while offline. Original artwork. */
function SafetyPoster({ title }: { title: string }) {
  const id = useSvgId();
  return (
    <svg
      className="reef-poster-art"
      viewBox="0 0 1280 720"
      role="img"
      aria-label={`Poster: ${title}`}
    >
      <defs>
        <linearGradient id={`${id}-deep`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#0f6f8f" />
          <stop offset="1" stopColor="#041c2c" />
        </linearGradient>
      </defs>
      <rect width="1280" height="720" fill={`url(#${id}-deep)`} />
      <g fill="#fff" opacity="0.05">
        <path d="M180 0 H300 L160 720 H-20Z" />
        <path d="M760 0 H840 L1040 720 H880Z" />
      </g>
      {/* reef */}
      <g fill="none" strokeLinecap="round" strokeWidth="18">
        <path
          d="M90 720 C90 640 110 600 140 580 M140 580 C130 540 140 510 165 500 M140 580 C170 560 200 570 205 530"
          stroke="#ff7a59"
        />
        <path
          d="M1140 720 C1140 650 1120 610 1090 590 M1090 590 C1100 550 1090 520 1066 510 M1090 590 C1060 575 1040 580 1030 545"
          stroke="#ff4fa3"
        />
        <path d="M1220 720 C1220 680 1230 650 1250 636" stroke="#ffb347" />
      </g>
      <path
        d="M0 650 Q80 620 160 650 T320 650 T480 650 T640 650 T800 650 T960 650 T1120 650 T1280 650 V720 H0Z"
        fill="#062a3d"
      />
      {/* robot */}
      <g transform="translate(504 470) scale(0.8)">
        <rect x="40" y="-150" width="24" height="170" rx="4" fill="#2c2c2c" />
        <rect x="276" y="-150" width="24" height="170" rx="4" fill="#2c2c2c" />
        <rect x="40" y="-160" width="260" height="20" rx="6" fill="#3a3a3a" />
        <rect x="120" y="-196" width="100" height="40" rx="8" fill="#ff7a59" />
        <rect
          x="0"
          y="20"
          width="340"
          height="120"
          rx="18"
          fill="#f5b700"
          stroke="#111"
          strokeWidth="10"
        />
        <text
          x="170"
          y="104"
          textAnchor="middle"
          fontFamily="system-ui, Arial, sans-serif"
          fontSize="64"
          fontWeight="900"
          fill="#111"
        >
          {Team}
        </text>
        <g fill="#111">
          <circle cx="56" cy="150" r="26" />
          <circle cx="284" cy="150" r="26" />
        </g>
      </g>
      {/* safety glasses badge */}
      <g transform="translate(640 150)">
        <circle r="72" fill="#111" stroke="#f5b700" strokeWidth="8" />
        <path
          d="M-50 -14 H50 Q54 -14 54 -8 V12 Q54 26 38 26 H16 Q8 26 4 16 Q0 8 -4 16 Q-8 26 -16 26 H-38 Q-54 26 -54 12 V-8 Q-54 -14 -50 -14Z"
          fill="#2bb3c8"
          stroke="#f5b700"
          strokeWidth="6"
          strokeLinejoin="round"
        />
        <path
          d="M-40 -4 L-26 -4 M16 -4 L30 -4"
          stroke="#fff"
          strokeWidth="5"
          strokeLinecap="round"
          opacity="0.8"
        />
      </g>
      <text
        x="640"
        y="290"
        textAnchor="middle"
        fontFamily="system-ui, Arial, sans-serif"
        fontSize="54"
        fontWeight="900"
        letterSpacing="10"
        fill="#fff"
      >
        SAFETY FIRST
      </text>
    </svg>
  );
}
