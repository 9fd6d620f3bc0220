import { AccountAddressSchema } from './account';
import { OBJECT_ID_PATTERN, PICKUP_MISSED_REASON_CODES } from './constants';
import { parcelIdsSchema } from './parcel';
import { dayField } from './run';
import { textField } from './text';
import { z } from './zod';

/**
 * Pickups: a shipper asks a courier to come for its parcels on a business day, within a window.
 * The API, the portal's form and the staff's Pickups page read these schemas.
 */
export const PICKUP_STATUSES = ['scheduled', 'completed', 'missed', 'cancelled'] as const;
export type PickupStatus = (typeof PICKUP_STATUSES)[number];

/** Until when (company time) a pickup may still be asked for, or cancelled, for that same day. */
export const DEFAULT_PICKUP_CUTOFF = '14:00';
/** How far ahead a pickup may be asked for. */
export const PICKUP_DAYS_AHEAD = 60;
export const MAX_PICKUP_PARCELS = 200;
export const PICKUP_NOTES_MAX = 500;

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const timeOfDay = (label: string) =>
  z
    .string({ error: `Enter the ${label} as HH:MM` })
    .trim()
    .regex(TIME_PATTERN, `Enter the ${label} as HH:MM`)
    .meta({ description: `${label} (HH:MM, company time)`, examples: ['14:00'] });

export const PickupWindowSchema = z
  .object({ from: timeOfDay('window’s start'), until: timeOfDay('window’s end') })
  .refine((window) => window.from < window.until, {
    path: ['until'],
    error: 'The window ends after it starts',
  });

const parcelCount = z.coerce
  .number({ error: 'Enter a number of parcels' })
  .int('Enter a whole number of parcels')
  .min(1, 'At least 1 parcel')
  .max(MAX_PICKUP_PARCELS, `At most ${MAX_PICKUP_PARCELS} parcels`);

/** POST /api/pickups. Without an address, the account's pickup address. */
export const PickupCreateSchema = z.object({
  date: dayField,
  window: PickupWindowSchema,
  address: AccountAddressSchema.optional(),
  parcelIds: parcelIdsSchema(MAX_PICKUP_PARCELS, 'Name at least one parcel')
    .optional()
    .meta({ description: 'The parcels to collect, when known: the account’s own' }),
  parcelCount: parcelCount
    .optional()
    .meta({ description: 'How many parcels (the parcels named, when they are)' }),
  notes: textField('Notes', PICKUP_NOTES_MAX).default(''),
});
export type PickupCreateInput = z.output<typeof PickupCreateSchema>;

/** The portal's form: the same request, its window as two fields. */
export const PickupFormSchema = z
  .object({
    date: dayField,
    from: timeOfDay('window’s start'),
    until: timeOfDay('window’s end'),
    parcelCount,
    notes: textField('Notes', PICKUP_NOTES_MAX).default(''),
  })
  .refine((form) => form.from < form.until, {
    path: ['until'],
    error: 'The window ends after it starts',
  });

/** The portal's and the staff page's Cancel button. */
export const PickupCancelSchema = z.object({
  intent: z.literal('cancel'),
  pickupId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown pickup'),
});

/** GET /api/pickups: staff filter by depot and day; an account sees its own. */
export const PickupListQuerySchema = z.object({
  date: dayField.optional(),
  depotId: z.string().trim().regex(OBJECT_ID_PATTERN, 'Unknown depot').optional(),
  status: z.enum(PICKUP_STATUSES).optional(),
});
export type PickupListQuery = z.output<typeof PickupListQuerySchema>;

/**
 * A pickup's outcome, one tap on the courier's run: Collected (with the count handed over,
 * chosen, never typed) or Not collected (with its reason). POST /api/pickups/:id/outcome.
 */
const collected = z.object({ outcome: z.literal('collected'), collectedCount: parcelCount });
const notCollected = z.object({
  outcome: z.literal('not_collected'),
  reason: z.enum(PICKUP_MISSED_REASON_CODES, { error: 'Choose why nothing was collected' }),
  note: textField('Note', PICKUP_NOTES_MAX).default(''),
});
export const PickupOutcomeSchema = z.discriminatedUnion('outcome', [collected, notCollected]);

/** The courier's run page: the same outcome, posted by the pickup stop's forms. */
const stopForm = {
  intent: z.literal('pickup'),
  pickupId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown pickup'),
};
export const PickupStopOutcomeSchema = z.discriminatedUnion('outcome', [
  collected.extend(stopForm),
  notCollected.extend(stopForm),
]);
export type PickupOutcome = z.output<typeof PickupOutcomeSchema>;

/** Settings → Depots: the pickups' cut-off. */
export const PickupSettingsSchema = z.object({
  intent: z.literal('pickups'),
  pickupCutoff: timeOfDay('cut-off'),
});
