import { getParcelSchedule, listParcelsExpectedOn } from '~/models/parcel-reads.server';
import { enqueueJob } from '~/models/job.server';
import { dayBeforeRule } from '~/models/notification-settings.server';
import {
  DAY_BEFORE_EMAIL_TIME,
  DAY_BEFORE_PLANNING_TIME,
  type ParcelStatus,
} from '~/schemas/constants';
import { env } from '~/lib/env.server';
import { addDays, dayIn } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import type { JobHandler } from './jobs.server';
import { queueAutomaticEmail } from './notifications.server';
import { queueDayBeforeText } from './sms.server';

/**
 * The e-mail the day before delivery: the recipient hears the day and the expected window once
 * per parcel and day. Each parcel's e-mail is planned as a job of its own, due at
 * DAY_BEFORE_EMAIL_TIME on the day before its estimated day (in the company's zone), whenever a
 * parcel is created or its estimated day is given; the job's key is the parcel and the day, so
 * planning again changes nothing and a new day plans a new job. When it runs, the job reads the
 * parcel as it is then: one no longer due that day (its estimate moved), delivered or returned,
 * or an e-mail switched off, sends nothing. The e-mail itself is queued under the parcel and day
 * too, so however often a job runs, one e-mail goes. Parcels stored without being planned (an
 * import, or before the e-mail existed) are planned by a daily job that looks for tomorrow's.
 */
export const DAY_BEFORE_JOB = 'parcel.day-before-email';
export const DAY_BEFORE_PLANNING_JOB = 'parcel.day-before-planning';

/** No e-mail about the next day for these: the journey is over. */
const OVER: readonly ParcelStatus[] = ['Delivered', 'Returned'];

const estimatedDay = (date: Date | string) => new Date(date).toISOString().slice(0, 10);

/**
 * Plans the day-before e-mail of the parcel for its estimated day: due on the day before, at once
 * if that is today and the time has passed; nothing when that day has already begun.
 */
export async function planDayBeforeEmail(parcel: {
  id: string;
  status: string;
  estimatedDelivery: string | Date | null;
}) {
  if (!parcel.estimatedDelivery || OVER.includes(parcel.status as ParcelStatus)) return null;
  const day = estimatedDay(parcel.estimatedDelivery);
  const now = new Date();
  if (dayIn(now, env.COMPANY_TIMEZONE) >= day) return null;
  const due = zonedDateTimeToUtc(addDays(day, -1), DAY_BEFORE_EMAIL_TIME, env.COMPANY_TIMEZONE);
  return enqueueJob(
    DAY_BEFORE_JOB,
    { parcelId: parcel.id, day },
    { runAt: due > now ? due : now, uniqueKey: `day-before:${parcel.id}:${day}` },
  );
}

async function sendDayBeforeEmail(parcelId: string, day: string) {
  const parcel = await getParcelSchedule(parcelId);
  if (!parcel?.estimatedDelivery || estimatedDay(parcel.estimatedDelivery) !== day) return;
  if (OVER.includes(parcel.status as ParcelStatus)) return;
  // Run late (the worker was down): on the day itself, "tomorrow" would be wrong.
  if (dayIn(new Date(), env.COMPANY_TIMEZONE) !== addDays(day, -1)) return;
  await queueDayBeforeText(parcelId, day);
  const rule = await dayBeforeRule();
  if (!rule) return;
  await queueAutomaticEmail({
    parcelId,
    template: rule.template,
    key: `email:day-before:${parcelId}:${day}`,
  });
}

/** The kind of job that sends a parcel's day-before e-mail (registered in job-kinds.server.ts). */
export const dayBeforeEmailJob: JobHandler = {
  run: (job) => sendDayBeforeEmail(String(job.payload.parcelId), String(job.payload.day)),
};

/**
 * Plans the daily look for the parcels expected the day after `day` (today in the company's zone
 * when not given), due at DAY_BEFORE_PLANNING_TIME that day; one job per day, however often the
 * server starts. Each run plans the next day's.
 */
export function planDayBeforePlanning(day = dayIn(new Date(), env.COMPANY_TIMEZONE)) {
  const now = new Date();
  const due = zonedDateTimeToUtc(day, DAY_BEFORE_PLANNING_TIME, env.COMPANY_TIMEZONE);
  return enqueueJob(
    DAY_BEFORE_PLANNING_JOB,
    { day },
    { runAt: due > now ? due : now, uniqueKey: `day-before-planning:${day}` },
  );
}

/**
 * Plans the day-before e-mails of many parcels stored at once (an import): those expected
 * tomorrow now, the later ones through the daily planning (one job each, not thousands now).
 */
export async function planDayBeforeEmailsOf(
  parcels: Array<{ id: string; status: string; estimatedDelivery: string | Date | null }>,
) {
  const tomorrow = addDays(dayIn(new Date(), env.COMPANY_TIMEZONE), 1);
  for (const parcel of parcels) {
    if (parcel.estimatedDelivery && estimatedDay(parcel.estimatedDelivery) === tomorrow) {
      await planDayBeforeEmail(parcel);
    }
  }
}

async function planTomorrowsEmails(day: string) {
  const tomorrow = addDays(day, 1);
  // Tomorrow's planning first, so that one failing day does not end the daily planning.
  await planDayBeforePlanning(tomorrow);
  for (const parcel of await listParcelsExpectedOn(tomorrow, OVER)) {
    await planDayBeforeEmail(parcel);
  }
}

/** The kind of job that plans the day-before e-mails of the parcels expected the next day. */
export const dayBeforePlanningJob: JobHandler = {
  run: (job) => planTomorrowsEmails(String(job.payload.day)),
};
