import { failedAttemptsBetween, parcelsWithoutScanSince } from '~/models/delivery.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import { env } from '~/lib/env.server';
import { toZonedInputs, zonedDateTimeToUtc } from '~/utils/time-zone';

const DAY_MS = 86_400_000;

/** The day `now` falls on in the company's zone, as the instants it starts and ends. */
export function companyDay(now = new Date()) {
  const zone = env.COMPANY_TIMEZONE;
  const { date } = toZonedInputs(now, zone);
  const start = zonedDateTimeToUtc(date, '00:00', zone);
  // Noon of the next calendar day, read back as a date, steps over any clock change.
  const next = toZonedInputs(new Date(start.getTime() + DAY_MS + DAY_MS / 2), zone).date;
  return { date, start, end: zonedDateTimeToUtc(next, '00:00', zone) };
}

/**
 * What staff must act on: today's failed delivery attempts (today in the company's zone) and open
 * parcels with no scan for the configured number of days.
 */
export async function deliveryExceptions(now = new Date()) {
  const { staleScanDays } = await getOperationsSettings();
  const today = companyDay(now);
  const [failedToday, quiet] = await Promise.all([
    failedAttemptsBetween(today.start, today.end),
    parcelsWithoutScanSince(new Date(now.getTime() - staleScanDays * DAY_MS)),
  ]);
  return { today: today.date, staleScanDays, failedToday, quiet };
}
