import confetti from 'canvas-confetti';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useRouteHead } from '../hooks/use-route-head';
import { usePrefersReducedMotion } from '../hooks/use-motion-preference';
import {
  announcementFor,
  countdownPhase,
  firstTarget,
  formatClock,
  isTimeZone,
  nextAnnouncement,
  nextTarget,
  parseTimeOfDay,
  ringFraction,
  type Announcement,
  type TimeOfDay,
} from '../lib/countdown';
import {
  CelebrationInterval,
  CelebrationLength,
  ConfettiColors,
  ConfettiOriginY,
  ConfettiParticles,
  ConfettiSpread,
  CountdownDebugOffset,
  CountdownTargetTimeOfDay,
  Team,
} from '../lib/spec.gen';
import { usePlatform } from '../platform';
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
  const custom = parseTimeOfDay(atParam);
  const timeOfDay = custom ?? defaultTimeOfDay;
  // A new address starts a new countdown from scratch.
  const key = `${debug}|${formatTimeOfDay(timeOfDay)}|${timeZone ?? ''}`;
  return <Countdown key={key} debug={debug} timeOfDay={timeOfDay} timeZone={timeZone} />;
}

function formatTimeOfDay({ hours, minutes, seconds }: TimeOfDay): string {
  return [hours, minutes, seconds].map((n) => String(n).padStart(2, '0')).join(':');
}

interface CountdownProps {
  debug: boolean;
  timeOfDay: TimeOfDay;
  /** The IANA time zone of the clock and the target (?tz=); the local one when undefined. */
  timeZone: string | undefined;
}

interface TargetState {
  targetMs: number;
  /** When this target was chosen; the ring runs from here to the target. */
  startMs: number;
}

const ringRadius = 45;
const ringLength = 2 * Math.PI * ringRadius;

function Countdown({ debug, timeOfDay, timeZone }: CountdownProps) {
  const platform = usePlatform();
  const reducedMotion = usePrefersReducedMotion();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const fireRef = useRef<confetti.CreateTypes | null>(null);

  const [nowMs, setNowMs] = useState(() => platform.now());
  const [target, setTarget] = useState<TargetState>(() => ({
    targetMs: firstTarget(nowMs, {
      debug,
      debugOffsetMs: CountdownDebugOffset,
      timeOfDay,
      timeZone,
    }),
    startMs: nowMs,
  }));

  const phase = countdownPhase(nowMs, target.targetMs, CelebrationLength);
  const candidate = announcementFor(phase);
  const [announcement, setAnnouncement] = useState<Announcement>(() => ({
    text: candidate,
    atMs: -Infinity,
  }));
  // Adjusting state from the render keeps the live region in step with the
  // ticks without an effect; nextAnnouncement returns the same object when
  // nothing may change, so this settles at once.
  const next = nextAnnouncement(announcement, candidate, nowMs);
  if (next !== announcement) setAnnouncement(next);

  // The clock: one tick a second from the host (Go in the desktop window).
  useEffect(
    () =>
      platform.subscribeTicks((tickMs) => {
        setNowMs(tickMs);
        setTarget((cur) =>
          countdownPhase(tickMs, cur.targetMs, CelebrationLength).kind === 'done'
            ? { targetMs: nextTarget(tickMs, timeOfDay, timeZone), startMs: tickMs }
            : cur,
        );
      }),
    [platform, timeOfDay, timeZone],
  );

  // One confetti cannon on the page's own canvas. No worker: the site's
  // script policy allows no blob: workers, and the bursts are small.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fire = confetti.create(canvas, { resize: true, useWorker: false });
    fireRef.current = fire;
    return () => {
      fireRef.current = null;
      fire.reset();
      // Free the full-screen backing store now; the engine's collector may
      // keep a detached canvas for a long time, and a kiosk mounts this page
      // again and again.
      canvas.width = 0;
      canvas.height = 0;
    };
  }, []);

  const celebratingTarget = phase.kind === 'celebrating' ? target.targetMs : null;
  useEffect(() => {
    if (celebratingTarget === null || reducedMotion) return;
    const colors = [...ConfettiColors];
    const burst = () => {
      if (platform.now() - celebratingTarget >= CelebrationLength) {
        clearInterval(timer);
        return;
      }
      void fireRef.current?.({
        particleCount: ConfettiParticles,
        spread: ConfettiSpread,
        origin: { y: ConfettiOriginY },
        colors,
      });
    };
    const timer = setInterval(burst, CelebrationInterval);
    burst();
    return () => clearInterval(timer);
  }, [celebratingTarget, reducedMotion, platform]);

  const fraction = ringFraction(nowMs, target.startMs, target.targetMs);
  const targetText = formatClock(target.targetMs, timeZone);
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
              <time dateTime={new Date(target.targetMs).toISOString()}>{targetText}</time>
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
          {announcement.text}
        </p>
      </div>
    </section>
  );
}
