import { timeZoneAbbreviation } from './time-zone';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

// Dates without a place are shown in UTC so the server-rendered page and the hydrated one agree.
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return dateFormat.format(new Date(value));
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return dateTimeFormat.format(new Date(value));
}

const eventFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A tracking event's time where it happened, as carriers print it: "Nov 22, 2026, 3:15 PM EST".
 */
export function formatEventTime(value: string | Date | null | undefined, timeZone: string): string {
  if (!value) return '—';
  const instant = new Date(value);
  let format = eventFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    });
    eventFormats.set(timeZone, format);
  }
  return `${format.format(instant)} ${timeZoneAbbreviation(instant, timeZone)}`;
}

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
