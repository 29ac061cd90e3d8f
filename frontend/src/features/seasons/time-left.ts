// The season page's countdown to kickoff (/reefscape): pure, so tests pin the
// time and never wait.

/** Whole days, hours, minutes and seconds until a moment, for a countdown clock. */
export interface TimeLeft {
  reached: boolean;
  totalMs: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/**
 * Splits the time from nowMs to targetMs into days, hours, minutes and whole
 * seconds (seconds rounded down); all zero and reached once the target passed.
 */
export function timeLeft(nowMs: number, targetMs: number): TimeLeft {
  const totalMs = Math.max(0, targetMs - nowMs);
  const totalSeconds = Math.floor(totalMs / 1000);
  return {
    reached: totalMs === 0,
    totalMs,
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
  };
}
