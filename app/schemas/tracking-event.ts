import {
  canonicalTimeZone,
  isTimeZone,
  toZonedInputs,
  zonedDateTimeToUtc,
} from '../utils/time-zone';
import { EVENT_STATUSES } from './constants';
import { z } from './zod';

export const EVENT_STATUS_MAX = 100;
export const EVENT_LOCATION_MAX = 200;
export const EVENT_DESCRIPTION_MAX = 1000;
export const CUSTOM_EVENT_STATUS = 'Custom Status';

const status = z
  .string({ error: 'Status must be text' })
  .trim()
  .min(1, 'Status is required')
  .max(EVENT_STATUS_MAX, `Status must be at most ${EVENT_STATUS_MAX} characters`);
const location = z
  .string({ error: 'Location must be text' })
  .trim()
  .max(EVENT_LOCATION_MAX, `Location must be at most ${EVENT_LOCATION_MAX} characters`);
const description = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(EVENT_DESCRIPTION_MAX, `Description must be at most ${EVENT_DESCRIPTION_MAX} characters`);
const TIME_ZONE_MESSAGE = 'Choose a time zone, e.g. America/New_York';
const timeZone = z
  .string({ error: 'Time zone must be text' })
  .trim()
  .refine(isTimeZone, { error: TIME_ZONE_MESSAGE })
  .transform(canonicalTimeZone);
const timestamp = z.iso
  .datetime({
    offset: true,
    error: 'Timestamp must be an ISO 8601 date and time, e.g. 2024-12-15T09:30:00Z',
  })
  .transform((value) => new Date(value));

/**
 * A tracking event as the API receives it (and what the form turns into).
 *
 * `status` is free text: one of EVENT_STATUSES moves the parcel's status per EVENT_TO_PARCEL_STATUS;
 * any other text is stored as a custom status and leaves the parcel's status as it is.
 * `timestamp` is an ISO 8601 date-time with a zone (`Z` or an offset); it defaults to now.
 * `timeZone` is the IANA zone of the place it happened ("America/Chicago"), in which it is shown;
 * it defaults to the company's (COMPANY_TIMEZONE).
 */
export const TrackingEventSchema = z.object({
  status,
  location: location.default(''),
  description: description.default(''),
  timestamp: timestamp.optional(),
  timeZone: timeZone.optional(),
});
export type TrackingEventInput = z.output<typeof TrackingEventSchema>;

/** PUT: the same fields, each optional; only those sent change. */
export const TrackingEventUpdateSchema = z
  .object({
    status: status.optional(),
    location: location.optional(),
    description: description.optional(),
    timestamp: timestamp.optional(),
    timeZone: timeZone.optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), {
    message: 'Send at least one of status, location, description, timestamp, timeZone',
  });
export type TrackingEventUpdate = z.output<typeof TrackingEventUpdateSchema>;

const DATE_INPUT = /^\d{4}-\d{2}-\d{2}$/;
const TIME_INPUT = /^\d{2}:\d{2}(:\d{2})?$/;

/**
 * The dashboard's add/edit form, read into a TrackingEventSchema input and checked by it. Date and
 * time are the clocks' reading in the chosen time zone, the place the event happened.
 * 'Custom Status' takes its text from `customStatus`. Empty date and time mean now.
 */
export const TrackingEventFormSchema = z
  .object({
    status: z.enum(EVENT_STATUSES, { error: 'Choose a status' }),
    customStatus: z
      .string()
      .trim()
      .max(EVENT_STATUS_MAX, `Custom status must be at most ${EVENT_STATUS_MAX} characters`)
      .default(''),
    location: location.default(''),
    description: description.default(''),
    date: z.string().trim().default(''),
    time: z.string().trim().default(''),
    timeZone: z.string({ error: TIME_ZONE_MESSAGE }).trim().min(1, TIME_ZONE_MESSAGE),
  })
  .superRefine((value, ctx) => {
    if (value.status === CUSTOM_EVENT_STATUS && !value.customStatus) {
      ctx.addIssue({ code: 'custom', path: ['customStatus'], message: 'Enter the custom status' });
    }
    if (value.date && !DATE_INPUT.test(value.date)) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'Enter a date as YYYY-MM-DD' });
    }
    if (value.time && !TIME_INPUT.test(value.time)) {
      ctx.addIssue({ code: 'custom', path: ['time'], message: 'Enter a time as HH:MM' });
    }
    if (value.time && !value.date) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'Enter a date for this time' });
    }
    if (!isTimeZone(value.timeZone)) {
      ctx.addIssue({ code: 'custom', path: ['timeZone'], message: TIME_ZONE_MESSAGE });
      return;
    }
    if (
      value.date &&
      DATE_INPUT.test(value.date) &&
      (!value.time || TIME_INPUT.test(value.time)) &&
      Number.isNaN(zonedDateTimeToUtc(value.date, value.time, value.timeZone).getTime())
    ) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'Enter a valid date' });
    }
  })
  .transform((value): z.input<typeof TrackingEventSchema> => ({
    status: value.status === CUSTOM_EVENT_STATUS ? value.customStatus : value.status,
    location: value.location,
    description: value.description,
    timestamp: value.date
      ? zonedDateTimeToUtc(value.date, value.time, value.timeZone).toISOString()
      : undefined,
    timeZone: value.timeZone,
  }))
  .pipe(TrackingEventSchema);

/** The delete confirmation: a button, no fields. */
export const TrackingEventDeleteSchema = z.object({});

/** Default values for the form's date and time inputs: `value` as clocks in `timeZone` showed it. */
export function toFormDateTime(value: Date | string, timeZone: string) {
  return toZonedInputs(value, timeZone);
}

/** The form's status select for a stored status: known ones as is, anything else as a custom status. */
export function toFormStatus(stored: string): { status: string; customStatus: string } {
  const known =
    (EVENT_STATUSES as readonly string[]).includes(stored) && stored !== CUSTOM_EVENT_STATUS;
  return known
    ? { status: stored, customStatus: '' }
    : { status: CUSTOM_EVENT_STATUS, customStatus: stored };
}
