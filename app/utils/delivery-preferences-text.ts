import { SAFE_PLACES, type SafePlace } from '~/schemas/constants';
import { longDay } from './delivery-headline';

type Preferences = {
  instructions?: string | null;
  safePlace?: string | null;
  safePlaceOther?: string | null;
  requestedDate?: string | null;
  holdAtDepot?: boolean | null;
};

/**
 * What the recipient asked for, as lines for staff and couriers: "Hold at the depot", "Deliver on
 * Friday, 4 December", "Safe place: In the porch", "Instructions: …". Safe in the browser (no zod,
 * for the scan station's weight).
 */
export function describeDeliveryPreferences(preferences: Preferences | null | undefined): string[] {
  if (!preferences) return [];
  const lines: string[] = [];
  if (preferences.holdAtDepot) lines.push('Hold at the depot for collection');
  if (preferences.requestedDate) lines.push(`Deliver on ${longDay(preferences.requestedDate)}`);
  if (preferences.safePlace)
    lines.push(
      `Safe place: ${
        preferences.safePlace === 'other'
          ? (preferences.safePlaceOther ?? 'elsewhere')
          : (SAFE_PLACES[preferences.safePlace as SafePlace] ?? preferences.safePlace)
      }`,
    );
  if (preferences.instructions) lines.push(`Instructions: ${preferences.instructions}`);
  return lines;
}
