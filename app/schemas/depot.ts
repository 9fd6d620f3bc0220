import { canonicalTimeZone, isTimeZone } from '../utils/time-zone';
import { OBJECT_ID_PATTERN } from './constants';
import { z } from './zod';
import { requiredText, textField } from './text';

export const DEPOT_NAME_MAX = 100;
export const DEPOT_ADDRESS_MAX = 300;
export const DEPOT_CITY_MAX = 100;
export const TIME_ZONE_MESSAGE = 'Choose a time zone, e.g. America/New_York';

/** An IANA zone ("America/Chicago"), read in any case and stored as Intl names it. */
export const timeZoneField = z
  .string({ error: 'Time zone must be text' })
  .trim()
  .refine(isTimeZone, { error: TIME_ZONE_MESSAGE })
  .transform(canonicalTimeZone)
  .meta({
    description: 'An IANA time zone name (the tz database), e.g. America/Chicago or UTC',
    examples: ['America/Chicago'],
  });

/** A courier's run's minutes from a depot: what its ETAs start from before the day's own pace. */
function runMinutes(label: string) {
  return z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label}: a whole number`)
    .min(0, `${label}: at least 0`)
    .max(240, `${label}: at most 240`)
    .meta({ description: `${label} on a courier's run, until their own pace today is known` });
}

/** A depot as the API and the Settings form take it. */
export const DepotSchema = z.object({
  name: requiredText('Name', DEPOT_NAME_MAX),
  address: textField('Address', DEPOT_ADDRESS_MAX).default(''),
  // The town its couriers deliver in: the scan station warns before sending a parcel for
  // another town out for delivery from here.
  city: textField('City', DEPOT_CITY_MAX)
    .optional()
    .meta({ description: 'The town its couriers deliver in (optional)' }),
  timeZone: timeZoneField,
  stopMinutes: runMinutes('Minutes at each stop').optional(),
  travelMinutes: runMinutes('Minutes between stops').optional(),
});
export type DepotInput = z.output<typeof DepotSchema>;

export const depotId = z
  .string({ error: 'Depot must be an id' })
  .trim()
  .regex(OBJECT_ID_PATTERN, 'Choose a depot from the list');

/** The Settings page's delete confirmation. */
export const DepotDeleteSchema = z.object({ intent: z.literal('delete'), depotId });

/** What the forms need of a depot to take its name and zone. */
export type DepotChoice = { id: string; name: string; timeZone: string };

export const STALE_SCAN_DAYS_DEFAULT = 3;
export const STALE_SCAN_DAYS_MAX = 60;

/**
 * Settings › Depots: whether couriers may record Delivered with a scan that names who received
 * the parcel (unticked, the box sends nothing: only the proof-of-delivery form delivers).
 */
export const DeliverySettingsSchema = z.object({
  intent: z.literal('deliveries'),
  deliveredByScan: z.boolean().default(false),
});

/** Settings › Depots: after how many days without a scan an open parcel is an exception. */
export const ExceptionSettingsSchema = z.object({
  intent: z.literal('exceptions'),
  staleScanDays: z.coerce
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(1, 'At least 1 day')
    .max(STALE_SCAN_DAYS_MAX, `At most ${STALE_SCAN_DAYS_MAX} days`),
});
