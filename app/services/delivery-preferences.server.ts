import type { Language } from '~/schemas/languages';
import { findParcelForRecipient } from '~/models/parcel-tracking-numbers.server';
import { setDeliveryPreferences } from '~/models/parcel-writes.server';
import { type LeanParcel, type SerializedDeliveryPreferences } from '~/models/parcel.server';
import { env } from '~/lib/env.server';
import { recipientStopIndex } from '~/lib/address-time-zone.server';
import { RateLimit, type RateLimitResult } from '~/lib/rate-limit.server';
import { type ParcelStatus } from '~/schemas/constants';
import {
  normalizePostcode,
  REQUESTABLE_DAYS,
  type DeliveryPreferencesInput,
} from '~/schemas/delivery-preferences';
import { addDays, dayIn, longDay } from '~/utils/delivery-headline';
import { auditRecord, type Actor } from './audit.server';
import { notFound } from './public-tracking.server';
import { emitWebhookEvent } from './webhooks.server';
import { planDayBeforeEmail } from './day-before-emails.server';
import { queueAutomaticEmail } from './notifications.server';
import { preferencesConfirmationEmail } from '~/emails/automatic.server';

/**
 * The recipient's own say over a delivery, behind the postcode of their own stop: what they ask
 * is stored on the parcel, recorded in the audit trail and sent to the webhooks, for the staff's
 * parcel page and the scan station to show.
 *
 * Every postcode attempt is counted before it is checked (one atomic increment per limit, so no
 * number of attempts at once gets more than the limit checked) and a right one is given back.
 * Per client address (an IPv6 client by its /64) the limit is strict: POSTCODE_TRIES an hour,
 * then 429. Per parcel it slows rather than locks, so that strangers guessing from many
 * addresses cannot lock the recipient out: after POSTCODE_TRIES in the hour, one attempt per
 * POSTCODE_SLOW_SECONDS for the whole parcel.
 */

export const POSTCODE_TRIES = 10;
export const POSTCODE_SLOW_SECONDS = 60;
const WINDOW_MS = 60 * 60 * 1000;
export const postcodeParcelLimiter = new RateLimit('postcode-parcel', POSTCODE_TRIES, WINDOW_MS);
export const postcodeParcelSlowLimiter = new RateLimit(
  'postcode-parcel-slow',
  1,
  POSTCODE_SLOW_SECONDS * 1000,
);
export const postcodeClientLimiter = new RateLimit('postcode-client', POSTCODE_TRIES, WINDOW_MS, {
  perAddress: true,
});

export const WRONG_POSTCODE = 'That postcode does not match the delivery address';
/** Statuses after which the recipient has no more say: the parcel was delivered or returned. */
export const JOURNEY_OVER: readonly ParcelStatus[] = ['Delivered', 'Returned'];
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

/**
 * The postcodes that open a parcel to its recipient: the recipient's own and their stop's. Another
 * stop's postcode is that stop's contact's, not the recipient's: it opens nothing here.
 */
export function recipientPostcodes(
  parcel: Pick<LeanParcel, 'recipient' | 'destinations'>,
): string[] {
  const stop = recipientStopIndex(parcel);
  return [
    parcel.recipient?.postalCode,
    stop === null ? '' : parcel.destinations?.[stop]?.postalCode,
  ]
    .map((code) => normalizePostcode(code ?? ''))
    .filter((code, i, all) => code && all.indexOf(code) === i);
}

export type PostcodeCheck =
  | { kind: 'ok'; parcel: LeanParcel }
  | { kind: 'not-found'; trackingNumber: string; mistyped: boolean }
  | { kind: 'wrong-postcode' }
  | { kind: 'rate-limited'; retryAfterSeconds: number; limit: RateLimitResult };

function limited(limit: RateLimitResult): PostcodeCheck {
  return { kind: 'rate-limited', retryAfterSeconds: limit.retryAfterSeconds, limit };
}

/**
 * Whether `postalCode` opens the parcel to its recipient. The attempt is counted first, against
 * the client (strict) and the parcel (past its budget, one attempt per POSTCODE_SLOW_SECONDS),
 * and given back when the postcode was right.
 */
export async function checkRecipientPostcode(
  trackingNumber: string,
  postalCode: string,
  client: string,
): Promise<PostcodeCheck> {
  const byClient = await postcodeClientLimiter.hit(client);
  if (!byClient.allowed) return limited(byClient);
  const byParcel = await postcodeParcelLimiter.hit(trackingNumber);
  if (!byParcel.allowed) {
    const slowed = await postcodeParcelSlowLimiter.hit(trackingNumber);
    if (!slowed.allowed) return limited(slowed);
  }
  const parcel = await findParcelForRecipient(trackingNumber);
  if (!parcel) return notFound(trackingNumber);
  const wanted = normalizePostcode(postalCode);
  if (!wanted || !recipientPostcodes(parcel).includes(wanted)) return { kind: 'wrong-postcode' };
  await postcodeClientLimiter.refund(client);
  if (byParcel.allowed) await postcodeParcelLimiter.refund(trackingNumber);
  return { kind: 'ok', parcel };
}

export type PreferencesOutcome =
  | Exclude<PostcodeCheck, { kind: 'ok' }>
  | { kind: 'closed' }
  | { kind: 'saved'; preferences: SerializedDeliveryPreferences };

/** Stores what the recipient asked for, after their postcode check. */
export async function updateDeliveryPreferences(
  trackingNumber: string,
  input: DeliveryPreferencesInput,
  {
    client,
    via,
    language,
  }: {
    client: string;
    via: 'page' | 'api';
    context: unknown;
    /** The language the form was filled in: the confirmation is written in it. */
    language?: Language;
  },
): Promise<PreferencesOutcome> {
  const check = await checkRecipientPostcode(trackingNumber, input.postalCode, client);
  if (check.kind !== 'ok') return check;
  return applyDeliveryPreferences(check.parcel, input, recipientActor(client, via), language);
}

/**
 * What the recipient asked for, stored on a parcel whose recipient they were shown to be (their
 * postcode, or a reply from the number a text went to): the write, the day-before e-mail for a
 * day asked for, the confirmation, `parcel.delivery_preferences_updated` and the audit entry.
 */
export async function applyDeliveryPreferences(
  parcel: LeanParcel,
  input: Omit<DeliveryPreferencesInput, 'postalCode'>,
  actor: Actor,
  language?: Language,
): Promise<Exclude<PreferencesOutcome, { kind: 'wrong-postcode' | 'rate-limited' }>> {
  const trackingNumber = parcel.trackingNumber;
  // A failed attempt is when the recipient most needs a say: only a journey over is closed.
  if (JOURNEY_OVER.includes((parcel.status ?? 'Pending') as ParcelStatus))
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
  if (preferences.requestedDate) await planDayBeforeEmail(updated);
  await queuePreferencesConfirmation(updated.id, preferences, language);
  await emitWebhookEvent('parcel.delivery_preferences_updated', {
    parcel: { id: updated.id, trackingNumber: updated.trackingNumber, status: updated.status },
    deliveryPreferences: preferences,
  });
  await auditRecord(actor, 'update', 'parcel', {
    label: updated.trackingNumber,
    before: { id: updated.id, deliveryPreferences: before } as never,
    after: { id: updated.id, deliveryPreferences: preferences } as never,
  });
  return { kind: 'saved', preferences };
}

/**
 * The recipient hears of every change to their delivery at their own address (queued like every
 * e-mail): what is now asked, and whom to call if it was not them; in the language they asked in
 * (else the parcel's).
 */
async function queuePreferencesConfirmation(
  parcelId: string,
  preferences: SerializedDeliveryPreferences,
  language?: Language,
) {
  try {
    await queueAutomaticEmail({
      parcelId,
      template: 'Custom',
      key: `email:preferences:${parcelId}:${preferences.updatedAt}`,
      language,
      compose: (parcel, _template, inLanguage) =>
        preferencesConfirmationEmail(parcel, preferences, inLanguage),
    });
  } catch (error) {
    console.error('Could not queue the confirmation of the delivery preferences', error);
  }
}

/** The audit trail's "who" for a change the recipient made behind their postcode. */
function recipientActor(client: string, via: 'page' | 'api'): Actor {
  return {
    user: { id: '', username: 'recipient (postcode)', role: 'viewer' } as Actor['user'],
    context: { clientAddress: client },
    via,
  };
}

/** The audit trail's "who" for a change the recipient made by replying to a text. */
export function textReplyActor(phone: string): Actor {
  return {
    user: { id: '', username: `recipient (text from ${phone})`, role: 'viewer' } as Actor['user'],
    context: {},
    via: 'api',
  };
}
