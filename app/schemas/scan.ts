import {
  MAX_PARCEL_DESTINATIONS,
  normalizeTrackingNumber,
  SCAN_STATUSES,
  OBJECT_ID_PATTERN,
  TRACKING_NUMBER_FORMAT_MESSAGE,
  TRACKING_NUMBER_INPUT,
  TRACKING_NUMBER_PATTERN,
} from './constants';
import { timeZoneField } from './depot';
import {
  checkAttempt,
  EVENT_DESCRIPTION_MAX,
  EVENT_LOCATION_MAX,
  nextAttemptDate,
  reason,
} from './tracking-event';
import { PROOF_RECEIVED_BY_MAX } from './proof-of-delivery';
import { z } from './zod';
import { textField } from './text';

export { SCAN_STATUSES };

export const PLACE_MESSAGE = 'Choose a depot or enter a location';

/**
 * One scan: `POST /api/scans` and the scan station's form. The place is a depot (its name and
 * zone are used; `location` and `timeZone` are then ignored) or a typed location, in `timeZone`
 * (default the company's). A `Failed Delivery` needs a reason (and a note for `other`). A
 * `Delivered` scan, where the settings allow one, names who received the parcel (`receivedBy`)
 * and may name the stop (`destination`); `override` records an Out for Delivery scan the station
 * warned about.
 */
export const ScanSchema = z
  .object({
    trackingNumber: z
      .string({ error: 'Enter a tracking number' })
      .transform(normalizeTrackingNumber)
      .pipe(
        z
          .string()
          .min(1, 'Enter a tracking number')
          .regex(TRACKING_NUMBER_PATTERN, TRACKING_NUMBER_FORMAT_MESSAGE),
      )
      .meta(TRACKING_NUMBER_INPUT),
    status: z.enum(SCAN_STATUSES, {
      error: `Status must be one of: ${SCAN_STATUSES.join(', ')}`,
    }),
    depotId: z
      .string({ error: 'Depot must be an id' })
      .trim()
      .regex(OBJECT_ID_PATTERN, 'Choose a depot from the list')
      .optional(),
    location: textField('Location', EVENT_LOCATION_MAX).optional(),
    timeZone: timeZoneField.optional(),
    timestamp: z.iso
      .datetime({
        offset: true,
        error: 'Timestamp must be an ISO 8601 date and time, e.g. 2024-12-15T09:30:00Z',
      })
      .transform((value) => new Date(value))
      .optional(),
    reason: reason.optional(),
    note: textField('Note', EVENT_DESCRIPTION_MAX).optional(),
    nextAttemptDate: nextAttemptDate.optional(),
    receivedBy: textField('Received by', PROOF_RECEIVED_BY_MAX)
      .optional()
      .meta({ description: 'A Delivered scan: who received the parcel' }),
    destination: z.coerce
      .number({ error: 'Destination must be the number of a stop, from 0' })
      .int('Destination must be the number of a stop, from 0')
      .min(0, 'Destination must be the number of a stop, from 0')
      .max(MAX_PARCEL_DESTINATIONS - 1, 'Destination must be the number of a stop, from 0')
      .optional()
      .meta({
        description:
          'A Delivered scan: the stop delivered, from 0 (default: the first without a proof of delivery)',
      }),
    override: z.boolean({ error: 'override must be true or false' }).optional().meta({
      description:
        'An Out for Delivery scan the station warned about (scan_needs_confirmation): record it anyway; the warnings are kept on the event',
    }),
  })
  .superRefine((value, ctx) => {
    if (!value.depotId && !value.location)
      ctx.addIssue({ code: 'custom', path: ['location'], message: PLACE_MESSAGE });
    checkAttempt(value, ctx, 'note');
  });
export type ScanInput = z.output<typeof ScanSchema>;

/** The scan station's undo: the event one of this session's scans recorded. */
export const ScanUndoSchema = z.object({
  intent: z.literal('undo'),
  eventId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid event'),
});

/**
 * The scan station's settings, kept in its URL so every scan that follows uses them: a value
 * that does not fit is dropped, and the station asks for it.
 */
export const ScanSetupSchema = z.object({
  status: z.enum(SCAN_STATUSES).optional().catch(undefined),
  depot: z.string().regex(OBJECT_ID_PATTERN).optional().catch(undefined),
  location: z.string().trim().max(EVENT_LOCATION_MAX).optional().catch(undefined),
  reason: reason.optional().catch(undefined),
  note: z.string().trim().max(EVENT_DESCRIPTION_MAX).optional().catch(undefined),
  nextAttemptDate: nextAttemptDate.optional().catch(undefined),
});
export type ScanSetup = z.output<typeof ScanSetupSchema>;
