// Clock helpers that the pit display and the countdown both use.

/** n as two digits, "07": the minutes and seconds of a clock. */
export const pad2 = (n: number) => String(n).padStart(2, '0');

/** Reports whether timeZone is an IANA time zone name this browser knows ("" is none). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
