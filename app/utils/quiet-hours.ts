import { addDays, dayIn } from './delivery-headline';
import { zonedDateTimeToUtc } from './time-zone';

/**
 * Quiet hours ("21:00-08:00", or "off"): when no text goes to a recipient, read in their zone.
 * Returns when the quiet hours that `now` falls in end, or null when a text may go now.
 */
export function quietHoursEnd(now: Date, timeZone: string, quietHours: string): Date | null {
  if (quietHours === 'off') return null;
  const [start, end] = quietHours.split('-') as [string, string];
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  const today = dayIn(now, timeZone);
  const overnight = start > end;
  const quiet = overnight ? local >= start || local < end : local >= start && local < end;
  if (!quiet) return null;
  const endDay = overnight && local >= start ? addDays(today, 1) : today;
  return zonedDateTimeToUtc(endDay, end, timeZone);
}
