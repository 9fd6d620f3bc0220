import {
  findParcelForRecipient,
  setDeliveryPreferences,
  type LeanParcel,
  type SerializedDeliveryPreferences,
} from '~/models/parcel.server';
import { env } from '~/lib/env.server';
import { RateLimit, type RateLimitResult } from '~/lib/rate-limit.server';
import { CLOSED_STATUSES, type ParcelStatus } from '~/schemas/constants';
import {
  normalizePostcode,
  REQUESTABLE_DAYS,
  type DeliveryPreferencesInput,
} from '~/schemas/delivery-preferences';
import { addDays, dayIn, longDay } from '~/utils/delivery-headline';
import { auditRecord, type Actor } from './audit.server';
import { notFound } from './public-tracking.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * The recipient's own say over a delivery, behind the postcode of the delivery address: what they
 * ask is stored on the parcel, recorded in the audit trail and sent to the webhooks, for the
 * staff's parcel page and the scan station to show. Wrong postcodes are counted per parcel and
 * per client address, so guessing meets 429 within ten tries either way.
 */

export const POSTCODE_TRIES = 10;
const WINDOW_MS = 60 * 60 * 1000;
export const postcodeParcelLimiter = new RateLimit('postcode-parcel', POSTCODE_TRIES, WINDOW_MS);
export const postcodeClientLimiter = new RateLimit('postcode-client', POSTCODE_TRIES, WINDOW_MS);

export const WRONG_POSTCODE = 'That postcode does not match the delivery address';
export const PREFERENCES_CLOSED = 'This parcel has arrived at its end: its delivery cannot change';

/** The days another delivery may be asked for: the next five working days, in the company's zone. */
export function requestableDays(now: Date = new Date()): string[] {
  const days: string[] = [];
  let day = dayIn(now, env.COMPANY_TIMEZONE);
  while (days.length < REQUESTABLE_DAYS) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day);
  }
  return days;
}

export const dayLabel = longDay;

/** The postcodes that open a parcel: its recipient's, else its last stop's. */
function postcodesOf(parcel: LeanParcel): string[] {
  const own = parcel.recipient?.postalCode?.trim();
  if (own) return [normalizePostcode(own)];
  const last = parcel.destinations?.at(-1)?.postalCode?.trim();
  return last ? [normalizePostcode(last)] : [];
}

export type PostcodeCheck =
  | { kind: 'ok'; parcel: LeanParcel }
  | { kind: 'not-found'; trackingNumber: string; mistyped: boolean }
  | { kind: 'wrong-postcode' }
  | { kind: 'rate-limited'; retryAfterSeconds: number; limit: RateLimitResult };

/**
 * Whether `postalCode` opens the parcel: refused with 429 once either budget is spent (before any
 * lookup), counted against both when wrong.
 */
export async function checkRecipientPostcode(
  trackingNumber: string,
  postalCode: string,
  client: string,
): Promise<PostcodeCheck> {
  for (const [limiter, key] of [
    [postcodeParcelLimiter, trackingNumber],
    [postcodeClientLimiter, client],
  ] as const) {
    const limit = await limiter.peek(key, 1);
    if (!limit.allowed)
      return { kind: 'rate-limited', retryAfterSeconds: Math.max(1, limit.resetSeconds), limit };
  }
  const parcel = await findParcelForRecipient(trackingNumber);
  const wanted = normalizePostcode(postalCode);
  if (parcel && wanted && postcodesOf(parcel).includes(wanted)) return { kind: 'ok', parcel };
  await postcodeParcelLimiter.hit(trackingNumber);
  await postcodeClientLimiter.hit(client);
  if (!parcel) return notFound(trackingNumber);
  return { kind: 'wrong-postcode' };
}

export type PreferencesOutcome =
  | Exclude<PostcodeCheck, { kind: 'ok' }>
  | { kind: 'closed' }
  | { kind: 'saved'; preferences: SerializedDeliveryPreferences };

/** Stores what the recipient asked for, after their postcode check. */
export async function updateDeliveryPreferences(
  trackingNumber: string,
  input: DeliveryPreferencesInput,
  { client, via }: { client: string; via: 'page' | 'api'; context: unknown },
): Promise<PreferencesOutcome> {
  const check = await checkRecipientPostcode(trackingNumber, input.postalCode, client);
  if (check.kind !== 'ok') return check;
  const { parcel } = check;
  if (CLOSED_STATUSES.includes((parcel.status ?? 'Pending') as ParcelStatus))
    return { kind: 'closed' };
  const before = parcel.deliveryPreferences ?? null;
  const updated = await setDeliveryPreferences(String(parcel._id), {
    instructions: input.instructions || null,
    safePlace: input.safePlace ?? null,
    safePlaceOther: input.safePlace === 'other' ? (input.safePlaceOther ?? null) : null,
    requestedDate: input.requestedDate ?? null,
    holdAtDepot: input.holdAtDepot ?? false,
  });
  if (!updated?.deliveryPreferences) return notFound(trackingNumber);
  const preferences = updated.deliveryPreferences;
  await emitWebhookEvent('parcel.delivery_preferences_updated', {
    parcel: { id: updated.id, trackingNumber: updated.trackingNumber, status: updated.status },
    deliveryPreferences: preferences,
  });
  await auditRecord(recipientActor(client, via), 'update', 'parcel', {
    label: updated.trackingNumber,
    before: { id: updated.id, deliveryPreferences: before } as never,
    after: { id: updated.id, deliveryPreferences: preferences } as never,
  });
  return { kind: 'saved', preferences };
}

/** The audit trail's "who" for a change the recipient made behind their postcode. */
function recipientActor(client: string, via: 'page' | 'api'): Actor {
  return {
    user: { id: '', username: 'recipient (postcode)', role: 'viewer' } as Actor['user'],
    context: { clientAddress: client },
    via,
  };
}
