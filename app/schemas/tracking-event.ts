import { isTimeZone, toZonedInputs, zonedDateTimeToUtc } from '../utils/time-zone';
import {
  EVENT_STATUSES,
  FAILED_DELIVERY,
  FAILURE_REASON_CODES,
  CUSTOM_EVENT_STATUS,
  OBJECT_ID_PATTERN,
  REOPEN_STATUSES,
  eventStatusOf,
  type FailureReason,
} from './constants';
import { TIME_ZONE_MESSAGE, timeZoneField, type DepotChoice } from './depot';
import { z } from './zod';
import { textField } from './text';

export const EVENT_STATUS_MAX = 100;
export const EVENT_LOCATION_MAX = 200;
export const EVENT_DESCRIPTION_MAX = 1000;
export { CUSTOM_EVENT_STATUS };

/** A Custom Status may say what it is in `customStatus`; no other status has one. */
function checkCustom(value: { status?: string; customStatus?: string }, ctx: z.RefinementCtx) {
  if (value.status === undefined || value.status === CUSTOM_EVENT_STATUS) return;
  if (value.customStatus !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['customStatus'],
      message: `Only a ${CUSTOM_EVENT_STATUS} has a customStatus`,
    });
}

export const EVENT_STATUS_MESSAGE = `Status must be one of: ${EVENT_STATUSES.join(', ')}`;
const status = z.enum(EVENT_STATUSES, { error: EVENT_STATUS_MESSAGE });
const customStatus = z
  .string({ error: 'Custom status must be text' })
  .trim()
  .min(1, 'Enter the custom status')
  .max(EVENT_STATUS_MAX, `Custom status must be at most ${EVENT_STATUS_MAX} characters`)
  .describe(`What a ${CUSTOM_EVENT_STATUS} says (shown in its place); only with that status`);
const location = textField('Location', EVENT_LOCATION_MAX);
const description = textField('Description', EVENT_DESCRIPTION_MAX);
const timeZone = timeZoneField;
const timestamp = z.iso
  .datetime({
    offset: true,
    error: 'Timestamp must be an ISO 8601 date and time, e.g. 2024-12-15T09:30:00Z',
  })
  .transform((value) => new Date(value));

const depotIdField = z
  .string({ error: 'Depot must be an id' })
  .trim()
  .regex(OBJECT_ID_PATTERN, 'Choose a depot from the list');
export const REASON_MESSAGE = 'Choose why the delivery failed';
export const reason = z.enum(FAILURE_REASON_CODES, {
  error: `Reason must be one of: ${FAILURE_REASON_CODES.join(', ')}`,
});
export const nextAttemptDate = z
  .string({ error: 'Next attempt must be a date' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the next attempt as YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Enter a valid date');

/**
 * A Failed Delivery needs its reason, and "other" a note saying what happened (`noteField`: where
 * the note is written); the other statuses take neither a reason nor a next attempt.
 */
export function checkAttempt(
  value: { status?: string; reason?: FailureReason; nextAttemptDate?: string } & Record<
    string,
    unknown
  >,
  ctx: z.RefinementCtx,
  noteField: string,
) {
  if (value.status === FAILED_DELIVERY) {
    if (!value.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_MESSAGE });
    else if (value.reason === 'other' && !String(value[noteField] ?? '').trim())
      ctx.addIssue({
        code: 'custom',
        path: [noteField],
        message: 'Say what happened when the reason is other',
      });
    return;
  }
  if (value.status === undefined) return;
  if (value.reason)
    ctx.addIssue({
      code: 'custom',
      path: ['reason'],
      message: 'Only a Failed Delivery has a reason',
    });
  if (value.nextAttemptDate)
    ctx.addIssue({
      code: 'custom',
      path: ['nextAttemptDate'],
      message: 'Only a Failed Delivery has a next attempt',
    });
}

/**
 * A tracking event as the API receives it (and what the form turns into).
 *
 * `status` is one of EVENT_STATUSES, which move the parcel's status per EVENT_TO_PARCEL_STATUS;
 * a `Custom Status` leaves the parcel's status as it is and says what it is in `customStatus`.
 * `timestamp` is an ISO 8601 date-time with a zone (`Z` or an offset); it defaults to now.
 * `timeZone` is the IANA zone of the place it happened ("America/Chicago"), in which it is shown;
 * it defaults to the company's (COMPANY_TIMEZONE). With `depotId` the event happened at that depot
 * and takes its name as location and its zone. A `Failed Delivery` needs a `reason` (FAILURE_REASONS;
 * `other` also needs a description) and may say the day of the next attempt.
 */
export const TrackingEventSchema = z
  .object({
    status,
    customStatus: customStatus.optional(),
    location: location.default(''),
    description: description.default(''),
    timestamp: timestamp.optional(),
    timeZone: timeZone.optional(),
    depotId: depotIdField.optional(),
    reason: reason.optional(),
    nextAttemptDate: nextAttemptDate.optional(),
  })
  .superRefine((value, ctx) => {
    checkAttempt(value, ctx, 'description');
    checkCustom(value, ctx);
  });
export type TrackingEventInput = z.output<typeof TrackingEventSchema>;

/** PUT: the same fields, each optional; only those sent change. */
export const TrackingEventUpdateSchema = z
  .object({
    status: status.optional(),
    customStatus: customStatus.optional(),
    location: location.optional(),
    description: description.optional(),
    timestamp: timestamp.optional(),
    timeZone: timeZone.optional(),
    depotId: depotIdField.optional(),
    reason: reason.optional(),
    nextAttemptDate: nextAttemptDate.optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), {
    message: 'Send at least one of status, location, description, timestamp, timeZone',
  })
  .superRefine((value, ctx) => {
    checkAttempt(value, ctx, 'description');
    checkCustom(value, ctx);
  });
export type TrackingEventUpdate = z.output<typeof TrackingEventUpdateSchema>;

const DATE_INPUT = /^\d{4}-\d{2}-\d{2}$/;
const TIME_INPUT = /^\d{2}:\d{2}(:\d{2})?$/;

/**
 * The dashboard's add/edit form, read into a TrackingEventSchema input and checked by it. Date and
 * time are the clocks' reading in the event's time zone, the place it happened: the chosen depot's
 * (whose name becomes the location), else the zone chosen. 'Custom Status' takes its text from
 * `customStatus`. Empty date and time mean now. `depots` are the depots one may choose.
 */
export function eventFormSchema(depots: readonly DepotChoice[] = []) {
  const depotOf = (id: string) => depots.find((depot) => depot.id === id);
  return z
    .object({
      status: z.enum(EVENT_STATUSES, { error: 'Choose a status' }),
      customStatus: z
        .string()
        .trim()
        .max(EVENT_STATUS_MAX, `Custom status must be at most ${EVENT_STATUS_MAX} characters`)
        .default(''),
      depotId: z.string().trim().default(''),
      location: location.default(''),
      description: description.default(''),
      reason: z.union([z.literal(''), reason]).default(''),
      nextAttemptDate: z.string().trim().default(''),
      date: z.string().trim().default(''),
      time: z.string().trim().default(''),
      timeZone: z.string({ error: TIME_ZONE_MESSAGE }).trim().min(1, TIME_ZONE_MESSAGE),
    })
    .superRefine((value, ctx) => {
      if (value.status === CUSTOM_EVENT_STATUS && !value.customStatus) {
        ctx.addIssue({
          code: 'custom',
          path: ['customStatus'],
          message: 'Enter the custom status',
        });
      }
      if (value.depotId && !depotOf(value.depotId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['depotId'],
          message: 'Choose a depot from the list',
        });
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
      if (value.status === FAILED_DELIVERY) {
        checkAttempt(
          {
            ...value,
            reason: value.reason || undefined,
            nextAttemptDate: value.nextAttemptDate || undefined,
          },
          ctx,
          'description',
        );
        if (value.nextAttemptDate && !nextAttemptDate.safeParse(value.nextAttemptDate).success)
          ctx.addIssue({
            code: 'custom',
            path: ['nextAttemptDate'],
            message: 'Enter the next attempt as YYYY-MM-DD',
          });
      }
      const zone = depotOf(value.depotId)?.timeZone ?? value.timeZone;
      if (!isTimeZone(zone)) {
        ctx.addIssue({ code: 'custom', path: ['timeZone'], message: TIME_ZONE_MESSAGE });
        return;
      }
      if (
        value.date &&
        DATE_INPUT.test(value.date) &&
        (!value.time || TIME_INPUT.test(value.time)) &&
        Number.isNaN(zonedDateTimeToUtc(value.date, value.time, zone).getTime())
      ) {
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'Enter a valid date' });
      }
    })
    .transform((value): z.input<typeof TrackingEventSchema> => {
      const depot = depotOf(value.depotId);
      const zone = depot?.timeZone ?? value.timeZone;
      const failed = value.status === FAILED_DELIVERY;
      return {
        status: value.status,
        ...(value.status === CUSTOM_EVENT_STATUS ? { customStatus: value.customStatus } : {}),
        location: depot ? depot.name : value.location,
        description: value.description,
        timestamp: value.date
          ? zonedDateTimeToUtc(value.date, value.time, zone).toISOString()
          : undefined,
        timeZone: zone,
        ...(depot ? { depotId: depot.id } : {}),
        ...(failed && value.reason ? { reason: value.reason } : {}),
        ...(failed && value.nextAttemptDate ? { nextAttemptDate: value.nextAttemptDate } : {}),
      };
    })
    .pipe(TrackingEventSchema);
}

/** The form without depots to choose from. */
export const TrackingEventFormSchema = eventFormSchema();

/** The delete confirmation: a button, no fields. */
export const TrackingEventDeleteSchema = z.object({});

/** Default values for the form's date and time inputs: `value` as clocks in `timeZone` showed it. */
export function toFormDateTime(value: Date | string, timeZone: string) {
  return toZonedInputs(value, timeZone);
}

/** The form's status select for a stored status: known ones as is, anything else as a custom status. */
export function toFormStatus(stored: { status: string; customStatus?: string | null }): {
  status: string;
  customStatus: string;
} {
  const { status, customStatus } = eventStatusOf(stored);
  return { status, customStatus: customStatus ?? '' };
}

export const REOPEN_REASON_MAX = 500;

/**
 * Staff reopening a delivered or returned parcel (`POST /api/parcels/:id/reopen` and the parcel's
 * Reopen page): the status it goes back to, and why, which the timeline and the audit trail keep.
 */
export const ParcelReopenSchema = z.object({
  status: z
    .enum(REOPEN_STATUSES, { error: `Status must be one of: ${REOPEN_STATUSES.join(', ')}` })
    .default('In Transit'),
  reason: z
    .string({ error: 'Say why the parcel is reopened' })
    .trim()
    .min(1, 'Say why the parcel is reopened')
    .max(REOPEN_REASON_MAX, `The reason must be at most ${REOPEN_REASON_MAX} characters`),
});
export type ParcelReopenInput = z.output<typeof ParcelReopenSchema>;
