import { useEffect, useState } from 'react';
import {
  announcementFor,
  countdownPhase,
  firstTarget,
  nextAnnouncement,
  nextTarget,
  type Announcement,
  type CountdownPhase,
  type TimeOfDay,
} from './countdown';
import { CelebrationLength, CountdownDebugOffset } from '../../gen/spec.gen';
import { usePlatform } from '../../platform';

/** What the countdown aims at. */
export interface CountdownSettings {
  /** Debug mode: the first target is CountdownDebugOffset after the page loads. */
  debug: boolean;
  timeOfDay: TimeOfDay;
  /** The IANA time zone of the clock and the target; the local one when undefined. */
  timeZone: string | undefined;
}

/** The countdown at the host's latest tick. */
export interface CountdownState {
  nowMs: number;
  targetMs: number;
  /** When this target was chosen; the ring runs from here to the target. */
  startMs: number;
  phase: CountdownPhase;
  /** What the live region says: it changes at most once a minute. */
  announcement: string;
}

interface TargetState {
  targetMs: number;
  startMs: number;
}

/**
 * The countdown page's clock (docs/SPEC.md section 4): one tick a second from
 * the host (Go in the desktop window), the first target, and the next one
 * once a celebration is done. The first target is chosen at mount: the page
 * mounts a new countdown when its settings change.
 */
export function useCountdown({ debug, timeOfDay, timeZone }: CountdownSettings): CountdownState {
  const platform = usePlatform();
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

  return { nowMs, ...target, phase, announcement: announcement.text };
}
