// Times between the wire (ISO, UTC) and the form's datetime-local inputs
// (the device's local time, no zone).

/** Go's zero time.Time, as the wire writes it: "no time". */
export const zeroTime = '0001-01-01T00:00:00Z';

/** Whether iso is missing, unreadable, or Go's zero time. */
export function isZeroTime(iso: string | null | undefined): boolean {
  if (!iso) return true;
  const t = Date.parse(iso);
  return Number.isNaN(t) || t <= Date.parse('0001-01-02T00:00:00Z');
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Returns iso as a datetime-local input's value, in local time; '' for no
 * time. withSeconds keeps the seconds (for an input with step="1").
 */
export function toLocalInput(iso: string, withSeconds = false): string {
  if (isZeroTime(iso)) return '';
  const d = new Date(iso);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return `${day}T${time}${withSeconds ? `:${pad(d.getSeconds())}` : ''}`;
}

/** Returns a datetime-local input's value (local time) as ISO; zeroTime for '' or nonsense. */
export function fromLocalInput(value: string): string {
  if (!value) return zeroTime;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? zeroTime : new Date(t).toISOString();
}

/** Says iso as a short local date and time, like "Sat 3 May, 14:30"; '' for no time. */
export function formatWhen(iso: string, locale?: string): string {
  if (isZeroTime(iso)) return '';
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}
