import { dayIn, zonedTime } from './delivery-headline';

const formats = new Map<string, Intl.DateTimeFormat>();

function cachedFormat(key: string, make: () => Intl.DateTimeFormat) {
  let format = formats.get(key);
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/**
 * A day, in the style the public pages and e-mails write dates (day, month, year): "22 Nov 2026".
 * Days without a time (an estimated delivery) are kept as midnight UTC, so they are read in UTC;
 * the day an instant fell on is read in the zone given (the company's on staff screens).
 */
export function formatDate(value: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (!value) return '—';
  return cachedFormat(
    `date ${timeZone}`,
    () =>
      new Intl.DateTimeFormat('en-GB', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone,
      }),
  ).format(new Date(value));
}

/**
 * An instant in the zone given, with the zone's name: "22 Nov 2026, 3:15 pm EST", the compact form
 * of the public pages' "Sunday, 22 November, 3:15 pm EST". Staff screens pass the company's zone, so
 * the server's render and the browser's agree and read as the office's.
 */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string): string {
  if (!value) return '—';
  const instant = new Date(value);
  return `${formatDate(dayIn(instant, timeZone))}, ${zonedTime(instant, timeZone)}`;
}

/** A tracking event's time where it happened, as carriers print it. */
export const formatEventTime = formatDateTime;

/** '5 minutes ago', '2 hours ago', '3 days ago' relative to `now`. */
export function formatRelativeTime(value: string | Date, now: Date | number = Date.now()): string {
  const seconds = Math.round((new Date(now).getTime() - new Date(value).getTime()) / 1000);
  if (seconds < 45) return 'just now';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
    [604800, 'week'],
    [2629800, 'month'],
    [31557600, 'year'],
  ];
  let chosen: [number, string] = units[0]!;
  for (const unit of units) if (Math.abs(seconds) >= unit[0]) chosen = unit;
  const amount = Math.max(1, Math.round(Math.abs(seconds) / chosen[0]));
  const label = `${amount} ${chosen[1]}${amount === 1 ? '' : 's'}`;
  return seconds >= 0 ? `${label} ago` : `in ${label}`;
}
