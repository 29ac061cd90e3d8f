import { useEffect, useId, useState } from 'react';
import { crescendo } from './content';
import { useRouteHead } from '../../shared/use-route-head';
import { usePrefersReducedMotion } from '../../shared/use-motion-preference';
import { advanceCircles, noCircles, type CirclesState } from './circles';
import { ms } from '../../shared/css-vars';
import {
  ExpandingCircleLifetime,
  ExpandingCirclesEvery,
  ExpandingCirclesMax,
  Team,
} from '../../gen/spec.gen';
import './season.css';
import './crescendo.css';
import { SeasonHomeLink } from './season-home-link';

const limits = {
  max: ExpandingCirclesMax,
  everyMs: ExpandingCirclesEvery,
  lifetimeMs: ExpandingCircleLifetime,
};

/**
 * The past season page (docs/SPEC.md section 2, "Past season page"): the 2024
 * game, the robot the team built for it, and rings of sound spreading out
 * behind the title.
 */
export default function Crescendo() {
  useRouteHead('/crescendo');
  const reducedMotion = usePrefersReducedMotion();
  const circles = useExpandingCircles(!reducedMotion);
  const { robot } = crescendo;

  return (
    <div className="cres">
      <SeasonHomeLink />

      <header className="cres-hero">
        <div className="cres-circles" aria-hidden="true">
          {circles.circles.map((c) => (
            <span
              key={c.id}
              className="cres-circle"
              style={{ animationDuration: ms(ExpandingCircleLifetime) }}
            />
          ))}
        </div>
        <NoteArt className="cres-hero-note" />
        <p className="season-kicker">
          {crescendo.year} season · FRC Team {Team}
        </p>
        <h1 className="season-heading cres-title">{crescendo.game}</h1>
        <p className="cres-tagline">{crescendo.tagline}</p>
      </header>

      <section className="cres-section cres-challenge" aria-labelledby="cres-challenge-title">
        <h2 id="cres-challenge-title" className="season-heading cres-heading">
          The {crescendo.year} challenge
        </h2>
        {crescendo.challenge.map((paragraph) => (
          <p key={paragraph.slice(0, 24)} className="cres-text">
            {paragraph}
          </p>
        ))}
        <ul className="cres-chips" aria-label="Where notes score">
          <li>
            <span className="cres-chip-icon" aria-hidden="true">
              ◉
            </span>
            Speaker
          </li>
          <li>
            <span className="cres-chip-icon" aria-hidden="true">
              ▣
            </span>
            Amp
          </li>
          <li>
            <span className="cres-chip-icon" aria-hidden="true">
              ▲
            </span>
            Stage and trap
          </li>
        </ul>
      </section>

      <section className="cres-section cres-robot" aria-labelledby="cres-robot-title">
        <RobotArt className="cres-robot-art" name={robot.name} />
        <div className="cres-robot-info">
          <p className="season-kicker">Our robot</p>
          <h2 id="cres-robot-title" className="season-heading cres-robot-name">
            {robot.name}
          </h2>
          <p className="cres-text">{robot.summary}</p>
          <dl className="cres-facts">
            {robot.facts.map((fact) => (
              <div key={fact.label} className="cres-fact">
                <dt>{fact.label}</dt>
                <dd>{fact.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
    </div>
  );
}

/**
 * The circles alive now: a new one every ExpandingCirclesEvery ms, at most
 * ExpandingCirclesMax, each for ExpandingCircleLifetime ms. None while
 * running is false (reduced motion).
 */
function useExpandingCircles(running: boolean): CirclesState {
  const [state, setState] = useState<CirclesState>(noCircles);
  useEffect(() => {
    if (!running) return;
    const step = () => setState((s) => advanceCircles(s, performance.now(), limits));
    step();
    const timer = setInterval(step, ExpandingCirclesEvery);
    return () => clearInterval(timer);
  }, [running]);
  return running ? state : noCircles;
}

/** A glowing note (the game's foam ring). Original artwork. */
function NoteArt({ className }: { className?: string }) {
  const id = `cres${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg className={className} viewBox="0 0 200 120" aria-hidden="true">
      <defs>
        <radialGradient id={`${id}-ring`} cx="50%" cy="40%" r="60%">
          <stop offset="0" stopColor="#ffb45e" />
          <stop offset="1" stopColor="#ff7a1a" />
        </radialGradient>
      </defs>
      <ellipse cx="100" cy="64" rx="86" ry="40" fill="#b34d00" />
      <ellipse cx="100" cy="56" rx="86" ry="40" fill={`url(#${id}-ring)`} />
      <ellipse cx="100" cy="56" rx="46" ry="18" fill="#111" />
      <ellipse cx="100" cy="60" rx="46" ry="16" fill="#1c1c1c" />
    </svg>
  );
}

/** Java the Hutt from the side: swerve modules, bumpers and a shooter. Original artwork. */
function RobotArt({ className, name }: { className?: string; name: string }) {
  return (
    <svg className={className} viewBox="0 0 420 320" role="img" aria-label={`Drawing of ${name}`}>
      {/* floor shadow */}
      <ellipse cx="200" cy="292" rx="170" ry="14" fill="#000" opacity="0.35" />
      {/* swerve modules */}
      <g fill="#222" stroke="#f5b700" strokeWidth="4">
        <rect x="62" y="222" width="56" height="54" rx="8" />
        <rect x="282" y="222" width="56" height="54" rx="8" />
      </g>
      <g fill="#111" stroke="#555" strokeWidth="4">
        <circle cx="90" cy="268" r="22" />
        <circle cx="310" cy="268" r="22" />
      </g>
      <g fill="#f5b700">
        <circle cx="90" cy="268" r="6" />
        <circle cx="310" cy="268" r="6" />
      </g>
      {/* frame and uprights */}
      <rect x="70" y="196" width="260" height="26" rx="4" fill="#3b3b3b" />
      <rect x="120" y="86" width="16" height="112" rx="3" fill="#4a4a4a" />
      <rect x="250" y="86" width="16" height="112" rx="3" fill="#4a4a4a" />
      <rect x="112" y="80" width="162" height="14" rx="4" fill="#555" />
      {/* shooter */}
      <g transform="rotate(-24 196 120)">
        <rect
          x="150"
          y="98"
          width="150"
          height="48"
          rx="10"
          fill="#222"
          stroke="#f5b700"
          strokeWidth="4"
        />
        <g fill="#f5b700">
          <circle cx="180" cy="122" r="9" />
          <circle cx="216" cy="122" r="9" />
          <circle cx="252" cy="122" r="9" />
        </g>
      </g>
      {/* a note on its way */}
      <g transform="translate(350 44) rotate(-24)">
        <ellipse rx="34" ry="13" fill="#ff7a1a" />
        <ellipse rx="17" ry="6" fill="#111" />
      </g>
      <g stroke="#ff7a1a" strokeWidth="4" strokeLinecap="round" opacity="0.6">
        <path d="M300 86 L318 74" />
        <path d="M296 100 L322 90" />
      </g>
      {/* intake */}
      <rect
        x="22"
        y="208"
        width="56"
        height="16"
        rx="8"
        fill="#f5b700"
        stroke="#111"
        strokeWidth="3"
      />
      {/* bumpers */}
      <rect
        x="52"
        y="218"
        width="296"
        height="44"
        rx="12"
        fill="#111"
        stroke="#f5b700"
        strokeWidth="4"
      />
      <text
        x="200"
        y="250"
        textAnchor="middle"
        fontFamily="system-ui, 'Segoe UI', Roboto, Arial, sans-serif"
        fontSize="26"
        fontWeight="900"
        letterSpacing="6"
        fill="#f5b700"
      >
        {Team}
      </text>
    </svg>
  );
}
