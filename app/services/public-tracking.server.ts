import {
  findParcelByTrackingNumber,
  findParcelsByTrackingNumbers,
  toPublicTrackingResult,
  type PublicTrackingResult,
} from '~/models/parcel-tracking-numbers.server';
import { type LeanParcel } from '~/models/parcel.server';
import { addressLines } from './address-format.server';
import { listProofsByTrackingNumber } from '~/models/proof-of-delivery.server';
import {
  FAILED_DELIVERY,
  failureReasonWords,
  normalizeTrackingNumber,
  TRACKING_NOT_FOUND,
  TRACKING_NUMBER_FORMAT_MESSAGE,
  TRACKING_NUMBER_PATTERN,
} from '~/schemas/constants';
import { NotFoundError, ValidationError } from '~/lib/errors.server';
import { env } from '~/lib/env.server';
import { parcelDeliveryData } from '~/lib/parcel-delivery-data.server';
import { hasValidCheckDigit } from '~/utils/tracking-number';
import {
  dayIn,
  deliveryHeadline,
  expectation,
  initials,
  longDateTime,
  longDay,
  progressSteps,
  shortTime,
  windowPhrase,
  zonedTime,
  type ProgressStep,
} from '~/utils/delivery-headline';
import { RateLimit } from '~/lib/rate-limit.server';

/**
 * One budget per client address, shared by the tracking page and the public API; every number
 * looked up counts once, however many arrive in one request.
 */
export const trackingLimiter = new RateLimit(
  'tracking',
  env.RATE_LIMIT_TRACKING_PER_MINUTE,
  60_000,
  { perAddress: true },
);

export { TRACKING_NOT_FOUND };

/** Why a number was not found, for clients to act on: mistyped when it fails its check digit. */
export type TrackingNotFoundCode = 'tracking_number_mistyped' | 'tracking_number_not_found';

export type TrackingLookup =
  | { kind: 'found'; result: PublicTrackingResult }
  | { kind: 'malformed'; trackingNumber: string }
  | { kind: 'not-found'; trackingNumber: string; mistyped: boolean };

/** The lookup's answer for a well-shaped number that no parcel has. */
export function notFound(trackingNumber: string) {
  return {
    kind: 'not-found' as const,
    trackingNumber,
    mistyped: !hasValidCheckDigit(trackingNumber),
  };
}

export function notFoundCode(lookup: { mistyped: boolean }): TrackingNotFoundCode {
  return lookup.mistyped ? 'tracking_number_mistyped' : 'tracking_number_not_found';
}

/**
 * The first part of a postcode, enough to name the area and not the street: the outward code of
 * a postcode written in two parts ("SW1A 1AA" → "SW1A", "K1A 0B1" → "K1A"), else its first three
 * characters ("98101" → "981", "75004" → "750").
 */
export function postcodeArea(postalCode: string): string {
  const code = postalCode.trim().toUpperCase();
  if (!code) return '';
  const [outward = ''] = code.split(/[\s-]+/);
  if (outward.length < code.replace(/[\s-]+/g, '').length && outward.length >= 2) return outward;
  return code.slice(0, 3);
}

/**
 * The recipient's address as the public may read it: the town, the region and the postcode's
 * area, in the country's order, never the street (from which a directory gives the postcode
 * that opens the recipient's say over the delivery). An address typed on one line keeps what
 * follows its first part, its postcode cut to the area.
 */
export function maskedAddress(place: {
  address: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}): string {
  const area = postcodeArea(place.postalCode);
  if (place.city || place.region || area || place.country)
    return addressLines({
      address: '',
      city: place.city,
      region: place.region,
      postalCode: area ? `${area}…` : '',
      country: place.country,
    }).join(', ');
  const [, ...rest] = place.address.split(/\s*(?:,|\r?\n)\s*/);
  return rest
    .filter(Boolean)
    .map((part) =>
      part.replace(/\b[A-Z0-9]*\d[A-Z0-9]*(?:[\s-][A-Z0-9]{2,4})?\b/gi, (code) =>
        code.length > 3 ? `${postcodeArea(code)}…` : code,
      ),
    )
    .join(', ');
}

/** A stored parcel as the public result: the recipient's street masked (maskedAddress). */
export function publicResult(parcel: LeanParcel): PublicTrackingResult {
  const { place, parcel: shown, events } = toPublicTrackingResult(parcel);
  return {
    parcel: { ...shown, recipient: { ...shown.recipient, address: maskedAddress(place) } },
    events,
  };
}

/** Looks a parcel up by what a visitor typed: spaces around it and letter case don't matter. */
export async function lookupTrackingNumber(input: string): Promise<TrackingLookup> {
  const trackingNumber = normalizeTrackingNumber(input);
  if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) return { kind: 'malformed', trackingNumber };
  const parcel = await findParcelByTrackingNumber(trackingNumber);
  if (!parcel) return notFound(trackingNumber);
  return { kind: 'found', result: publicResult(parcel) };
}

/** Looks several numbers up in one query; one answer per number, in the order given. */
export async function lookupTrackingNumbers(inputs: string[]): Promise<TrackingLookup[]> {
  const numbers = inputs.map(normalizeTrackingNumber);
  const wellFormed = numbers.filter((n) => TRACKING_NUMBER_PATTERN.test(n));
  let parcels: Awaited<ReturnType<typeof findParcelsByTrackingNumbers>> = [];
  if (wellFormed.length) {
    parcels = await findParcelsByTrackingNumbers(wellFormed);
  }
  const byNumber = new Map(parcels.map((parcel) => [parcel.trackingNumber, parcel]));
  return numbers.map((trackingNumber): TrackingLookup => {
    if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) return { kind: 'malformed', trackingNumber };
    const parcel = byNumber.get(trackingNumber);
    if (!parcel) return notFound(trackingNumber);
    return { kind: 'found', result: publicResult(parcel) };
  });
}

/**
 * One entry of a batch answer (`POST /api/tracking/track`). Numbers that are unknown or not
 * shaped like a tracking number are both "not found"; `message` says which.
 */
export function toBatchEntry(lookup: TrackingLookup) {
  if (lookup.kind === 'found') {
    return {
      trackingNumber: lookup.result.parcel.trackingNumber,
      found: true as const,
      parcel: lookup.result.parcel,
      events: lookup.result.events,
    };
  }
  return {
    trackingNumber: lookup.trackingNumber,
    found: false as const,
    error: TRACKING_NOT_FOUND,
    code:
      lookup.kind === 'not-found' ? notFoundCode(lookup) : ('tracking_number_not_found' as const),
    message:
      lookup.kind === 'malformed'
        ? TRACKING_NUMBER_FORMAT_MESSAGE
        : `${TRACKING_NOT_FOUND}: ${lookup.trackingNumber}`,
  };
}
export type TrackingBatchEntry = ReturnType<typeof toBatchEntry>;

/** A path's tracking number that cannot be one: a ValidationError naming the expected shape. */
export function malformedTrackingNumber() {
  return new ValidationError(
    { trackingNumber: ['Expected three letters followed by nine digits, e.g. SWX123456789'] },
    'Invalid tracking number: expected three letters followed by nine digits',
  );
}

/**
 * No parcel has this number: a NotFoundError with the number as it was looked up and whether it
 * is mistyped (it fails its check digit) or simply unknown.
 */
export function trackingNumberNotFound(lookup: { trackingNumber: string; mistyped: boolean }) {
  return new NotFoundError(TRACKING_NOT_FOUND, {
    code: notFoundCode(lookup),
    extra: { trackingNumber: lookup.trackingNumber },
  });
}

/** A found parcel as schema.org ParcelDelivery data, for the tracking page. */
export function trackingDeliveryData({ parcel, events }: PublicTrackingResult) {
  return parcelDeliveryData({
    trackingNumber: parcel.trackingNumber,
    status: parcel.status,
    estimatedDelivery: parcel.estimatedDelivery,
    window: parcel.deliveryWindow,
    lastEventAt: events[0]?.timestamp ?? null,
    timeZone: parcel.timeZone,
  });
}

/** The parcel's ParcelDelivery data as its page shows it, for its e-mails; null when it is gone. */
export async function deliveryDataFor(trackingNumber: string) {
  const parcel = await findParcelByTrackingNumber(trackingNumber);
  return parcel ? trackingDeliveryData(publicResult(parcel)) : null;
}

/** What the recipient reads first: the headline, the steps, the expected day and the update time. */
export type TrackingGlance = {
  headline: string;
  steps: ProgressStep[];
  /** "Thursday, 26 November" while an arrival is expected (the new day once late); else null. */
  expected: string | null;
  /** "by 6 pm EST", "between 2 pm and 4 pm EST" on that day. */
  window: string | null;
  /** "Tuesday, 24 November at 2:32 pm PST" once delivered. */
  delivered: string | null;
  receivedBy: string | null;
  lastUpdated: string | null;
  timeZone: string;
  /** After a failed attempt: what happened, in words, and when the next attempt is. */
  attempt: { reason: string; at: string; next: string | null } | null;
  /** Out on a started run: "Your parcel is on its way — you are stop 4 of 11, expected between …". */
  onItsWay: string | null;
};

/** The recipient's stop on a started run, its place and its one-hour window in their zone. */
export function onItsWay(
  eta: PublicTrackingResult['parcel']['eta'],
  timeZone: string,
): string | null {
  if (!eta) return null;
  const between = `between ${shortTime(new Date(eta.from), timeZone)} and ${zonedTime(new Date(eta.until), timeZone)}`;
  return `Your parcel is on its way — you are stop ${eta.stopsBefore + 1} of ${eta.stops}, expected ${between}`;
}

/**
 * The result at a glance, read from one place: the parcel's stored status (which every status
 * change, by event or by hand, keeps in step with the latest event) and its dates, in the
 * recipient's zone or, for the delivery, the zone it happened in. `receivedBy` is the delivered
 * parcel's proof's name, when one was recorded.
 */
export function trackingGlance(
  result: PublicTrackingResult,
  { now = new Date(), receivedBy = null }: { now?: Date; receivedBy?: string | null } = {},
): TrackingGlance {
  const { parcel, events } = result;
  const timeZone = parcel.timeZone;
  const deliveredEvent = events.find((e) => e.status === 'Delivered');
  const deliveredAt =
    parcel.status === 'Delivered'
      ? (parcel.actualDelivery ?? deliveredEvent?.timestamp ?? null)
      : null;
  const deliveredTimeZone = deliveredEvent?.timeZone ?? timeZone;
  const latest = events[0];
  const input = {
    status: parcel.status,
    estimatedDelivery: parcel.estimatedDelivery,
    window: parcel.deliveryWindow,
    deliveredAt,
    deliveredTimeZone,
    receivedBy,
    nextAttemptDate: latest?.status === FAILED_DELIVERY ? latest.nextAttemptDate : null,
    requestedDate: parcel.requestedDate,
    holdAtDepot: parcel.holdAtDepot,
    timeZone,
    now,
  };
  const expected = expectation(input);
  const updated = [parcel.updatedAt, latest?.timestamp]
    .filter((v): v is string => !!v)
    .sort()
    .at(-1);
  const failed =
    parcel.status === 'Failed' ? events.find((e) => e.status === FAILED_DELIVERY) : null;
  return {
    headline: deliveryHeadline(input),
    steps: progressSteps(parcel.status),
    expected: expected ? longDay(expected.day) : null,
    window: expected ? windowPhrase(expected.window, timeZone) : null,
    delivered: deliveredAt
      ? `${longDay(dayIn(new Date(deliveredAt), deliveredTimeZone))} at ${zonedTime(new Date(deliveredAt), deliveredTimeZone)}`
      : null,
    receivedBy: receivedBy ? initials(receivedBy) : null,
    lastUpdated: updated ? longDateTime(updated, timeZone) : null,
    timeZone,
    attempt: failed
      ? {
          reason: failureReasonWords(failed.reason),
          at: failed.timestamp ? longDateTime(failed.timestamp, failed.timeZone) : '',
          next: failed.nextAttemptDate ? longDay(failed.nextAttemptDate) : null,
        }
      : null,
    onItsWay: onItsWay(parcel.eta, timeZone),
  };
}

/** The glance of one full result: a delivered parcel's proof says who received it. */
export async function lookupGlance(result: PublicTrackingResult): Promise<TrackingGlance> {
  const proofs =
    result.parcel.status === 'Delivered'
      ? await listProofsByTrackingNumber(result.parcel.trackingNumber)
      : [];
  return trackingGlance(result, { receivedBy: proofs.at(-1)?.receivedBy ?? null });
}
