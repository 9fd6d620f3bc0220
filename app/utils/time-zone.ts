/**
 * Wall-clock times in IANA time zones, with the platform's Intl data only (no library: the two
 * conversions below are all the app needs, and Intl knows every zone and its rules).
 * Safe in the browser.
 */

import { minuteOf, remembered } from './remembered';

export { DEFAULT_COMPANY_TIME_ZONE } from './company-defaults';

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows `timeZone` as an IANA zone ("America/New_York", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  if (!timeZone || !/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(timeZone)) return false;
  try {
    partsFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical name ("utc" → "UTC"), for zones isTimeZone accepts. */
export function canonicalTimeZone(timeZone: string): string {
  return partsFormat(timeZone).resolvedOptions().timeZone;
}

/** The calendar date and time the clocks in `timeZone` showed at `instant` (to the second). */
const wallClock = remembered(
  (instant: Date, timeZone: string) => {
    const parts: Record<string, number> = {};
    for (const part of partsFormat(timeZone).formatToParts(instant))
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    return parts as Readonly<
      Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
    >;
  },
  (instant, timeZone) => `${timeZone} ${Math.floor(instant.getTime() / 1000)}`,
);

/** How far `timeZone`'s clocks were ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: Date, timeZone: string): number {
  const c = wallClock(instant, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant at which clocks in `timeZone` showed `date` (YYYY-MM-DD) and `time` (HH:MM[:SS]).
 * A time skipped when clocks go forward is read with the offset from before the change (2:30 in
 * a gap becomes 3:30); a time that happens twice when they go back is its first occurrence.
 * An impossible date (2024-02-31) or time gives an invalid Date.
 */
export function zonedDateTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh = 0, mm = 0, ss = 0] = (time || '00:00').split(':').map(Number);
  const wall = Date.UTC(y!, m! - 1, d!, hh, mm, ss);
  const check = new Date(wall);
  // Date.UTC rolls 2024-02-31 over to March; treat that as invalid rather than guess.
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m! - 1 || check.getUTCDate() !== d)
    return new Date(NaN);
  if (hh > 23 || mm > 59 || ss > 59) return new Date(NaN);
  // The offsets a few hours either side cover both sides of any change near this time.
  const before = offsetAt(new Date(wall - 12 * 3600_000), timeZone);
  const after = offsetAt(new Date(wall + 12 * 3600_000), timeZone);
  const candidates = [wall - before, wall - after].filter(
    (t) => offsetAt(new Date(t), timeZone) === wall - t,
  );
  if (candidates.length) return new Date(Math.min(...candidates));
  return new Date(wall - before);
}

/** The date and time inputs' values (YYYY-MM-DD, HH:MM) for `instant` as seen in `timeZone`. */
export function toZonedInputs(instant: Date | string, timeZone: string) {
  const c = wallClock(new Date(instant), timeZone);
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return {
    date: `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`,
    time: `${pad(c.hour)}:${pad(c.minute)}`,
  };
}

// en-US names the US zones (EST, PDT), en-GB the European ones (BST, CET), en-AU and en-IN theirs.
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ'];
const nameFormats = new Map<string, Intl.DateTimeFormat>();

/** The short name of `timeZone` at `instant`, as carriers print it: "EST", "BST", else "GMT+9". */
export const timeZoneAbbreviation = remembered(
  (instant: Date, timeZone: string): string => {
    let fallback = '';
    for (const locale of ABBREVIATION_LOCALES) {
      const key = `${locale} ${timeZone}`;
      let format = nameFormats.get(key);
      if (!format) {
        format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
        nameFormats.set(key, format);
      }
      const name =
        format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (!/^(GMT|UTC)[+-−]/.test(name)) return name;
      fallback ||= name;
    }
    return fallback;
  },
  (instant, timeZone) => `${timeZone} ${minuteOf(instant)}`,
);

/**
 * Zones offered in the staff event form: UTC and the main zone of each region (every offset in
 * use is among them). A stored or detected zone that is not listed is added to the choice.
 */
export const TIME_ZONE_CHOICES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Toronto',
  'America/Vancouver',
  'America/Halifax',
  'America/St_Johns',
  'America/Mexico_City',
  'America/Bogota',
  'America/Lima',
  'America/Caracas',
  'America/Santiago',
  'America/Sao_Paulo',
  'America/Argentina/Buenos_Aires',
  'Atlantic/Azores',
  'Atlantic/Reykjavik',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Madrid',
  'Europe/Amsterdam',
  'Europe/Berlin',
  'Europe/Rome',
  'Europe/Stockholm',
  'Europe/Warsaw',
  'Europe/Athens',
  'Europe/Helsinki',
  'Europe/Istanbul',
  'Europe/Moscow',
  'Africa/Casablanca',
  'Africa/Lagos',
  'Africa/Cairo',
  'Africa/Johannesburg',
  'Africa/Nairobi',
  'Asia/Jerusalem',
  'Asia/Riyadh',
  'Asia/Tehran',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Jakarta',
  'Asia/Singapore',
  'Asia/Hong_Kong',
  'Asia/Shanghai',
  'Asia/Manila',
  'Asia/Seoul',
  'Asia/Tokyo',
  'Australia/Perth',
  'Australia/Adelaide',
  'Australia/Brisbane',
  'Australia/Sydney',
  'Pacific/Auckland',
] as const;
