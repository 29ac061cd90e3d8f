import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useConfetti } from './use-confetti';
import { useCountdown, type CountdownSettings } from './use-countdown';
import { useRouteHead } from '../../shared/use-route-head';
import { usePrefersReducedMotion } from '../../shared/use-motion-preference';
import { formatClock, parseTimeOfDay, ringFraction, type TimeOfDay } from './countdown';
import { isTimeZone } from '../../shared/time';
import { CelebrationLength, CountdownTargetTimeOfDay, Team } from '../../gen/spec.gen';
import './whattimeisit.css';

const defaultTimeOfDay: TimeOfDay = parseTimeOfDay(CountdownTargetTimeOfDay) ?? {
  hours: 12,
  minutes: 9,
  seconds: 0,
};

/** Debug mode is on unless the address says ?debug=off (docs/SPEC.md section 4: hard-coded on). */
function debugFromParam(value: string | null): boolean {
  return !(value !== null && ['off', 'false', '0', 'no'].includes(value.toLowerCase()));
}

/**
 * The countdown page (docs/SPEC.md section 2 and 4): counts down to the target,
 * then celebrates with confetti for a minute, then moves on to the next
 * target. ?debug=off, ?at=HH:MM[:SS] and ?tz=ZONE change how the target is chosen.
 */
export default function WhatTimeIsIt() {
  useRouteHead('/whattimeisit');
  const [params] = useSearchParams();
  const debug = debugFromParam(params.get('debug'));
  const atParam = params.get('at');
  const tzParam = params.get('tz');
  const timeZone = tzParam && isTimeZone(tzParam) ? tzParam : undefined;
  // One object per ?at=, so a render for another reason keeps the clock's subscription.
  const timeOfDay = useMemo(() => parseTimeOfDay(atParam) ?? defaultTimeOfDay, [atParam]);
  // A new address starts a new countdown from scratch.
  const key = `${debug}|${formatTimeOfDay(timeOfDay)}|${timeZone ?? ''}`;
  return <Countdown key={key} debug={debug} timeOfDay={timeOfDay} timeZone={timeZone} />;
}

function formatTimeOfDay({ hours, minutes, seconds }: TimeOfDay): string {
  return [hours, minutes, seconds].map((n) => String(n).padStart(2, '0')).join(':');
}

const ringRadius = 45;
const ringLength = 2 * Math.PI * ringRadius;

function Countdown(settings: CountdownSettings) {
  const { debug, timeZone } = settings;
  const { nowMs, targetMs, startMs, phase, announcement } = useCountdown(settings);
  const reducedMotion = usePrefersReducedMotion();
  const canvasRef = useConfetti(
    phase.kind === 'celebrating' && !reducedMotion ? targetMs + CelebrationLength : null,
  );

  const fraction = ringFraction(nowMs, startMs, targetMs);
  const targetText = formatClock(targetMs, timeZone);
  const celebrating = phase.kind !== 'counting';
  const seconds = phase.kind === 'counting' ? phase.secondsLeft : 0;
  const secondsText = seconds.toLocaleString('en-US');

  return (
    <section
      className={`wtii${celebrating ? ' wtii--party' : ''}`}
      aria-labelledby="wtii-title"
      data-phase={phase.kind}
    >
      <canvas ref={canvasRef} className="wtii-confetti" aria-hidden="true" />
      <div className="wtii-stage">
        <p className="wtii-now">
          <span className="wtii-label">Now</span>
          <time className="wtii-clock" dateTime={new Date(nowMs).toISOString()}>
            {formatClock(nowMs, timeZone)}
          </time>
        </p>

        {celebrating ? (
          <div className="wtii-party">
            <h1 id="wtii-title" className="wtii-title">
              What time is it?
            </h1>
            <p className="wtii-answer">It’s {Team} time!</p>
          </div>
        ) : (
          <div className="wtii-count">
            <h1 id="wtii-title" className="wtii-heading">
              Countdown
            </h1>
            <div className="wtii-ring" role="timer" aria-label={`${secondsText} seconds left`}>
              <svg viewBox="0 0 100 100" aria-hidden="true" className="wtii-ring-svg">
                <circle className="wtii-ring-track" cx="50" cy="50" r={ringRadius} />
                <circle
                  className="wtii-ring-fill"
                  cx="50"
                  cy="50"
                  r={ringRadius}
                  strokeDasharray={ringLength}
                  strokeDashoffset={ringLength * (1 - fraction)}
                  transform="rotate(-90 50 50)"
                />
              </svg>
              <p className="wtii-seconds" aria-hidden="true">
                <span
                  className={`wtii-seconds-value${secondsText.length > 5 ? ' wtii-seconds-value--long' : ''}`}
                >
                  {secondsText}
                </span>
                <span className="wtii-seconds-unit">{seconds === 1 ? 'second' : 'seconds'}</span>
              </p>
            </div>
          </div>
        )}

        <dl className="wtii-facts">
          <div>
            <dt>Target</dt>
            <dd>
              <time dateTime={new Date(targetMs).toISOString()}>{targetText}</time>
            </dd>
          </div>
          <div>
            <dt>Debug mode</dt>
            <dd className={`wtii-debug wtii-debug--${debug ? 'on' : 'off'}`}>
              {debug ? 'ON' : 'OFF'}
            </dd>
          </div>
        </dl>
        <p className="visually-hidden" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
      </div>
    </section>
  );
}
