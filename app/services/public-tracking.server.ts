import {
  findParcelByTrackingNumber,
  findParcelsByTrackingNumbers,
  toPublicTrackingResult,
  type PublicTrackingResult,
} from '~/models/parcel-tracking-numbers.server';
import {
  type LeanParcel,
  serializePreferences,
  type SerializedDeliveryPreferences,
} from '~/models/parcel.server';
import { addressLines } from './address-format.server';
import { listProofsByTrackingNumber } from '~/models/proof-of-delivery.server';
import {
  FAILED_DELIVERY,
  FAILURE_REASONS,
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
  deliveredAt as deliveredAtWords,
  deliveryHeadline,
  expectation,
  initials,
  longDateTime,
  longDay,
  progressSteps,
  windowPhrase,
  type ProgressStep,
  type Words,
} from '~/utils/delivery-headline';
import { RateLimit } from '~/lib/rate-limit.server';
import { wordsFor } from '~/lib/i18n.server';
import type { Language } from '~/schemas/languages';

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
  | {
      kind: 'found';
      result: PublicTrackingResult;
      /** The recipient's language (BCP 47), which the tracking page speaks to them; never shown. */
      language: string | null;
    }
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
  return {
    kind: 'found',
    result: publicResult(parcel),
    language: parcel.recipient?.language || null,
  };
}

/**
 * The stored parcels of numbers already normalised (TrackingQuerySchema, TrackingBatchSchema),
 * in one query, each with its lookup's answer, in the order given.
 */
async function readTrackingNumbers(
  numbers: readonly string[],
): Promise<Array<{ lookup: TrackingLookup; parcel: LeanParcel | null }>> {
  const wellFormed = numbers.filter((n) => TRACKING_NUMBER_PATTERN.test(n));
  const parcels = wellFormed.length ? await findParcelsByTrackingNumbers(wellFormed) : [];
  const byNumber = new Map(parcels.map((parcel) => [parcel.trackingNumber, parcel]));
  return numbers.map((trackingNumber) => {
    if (!TRACKING_NUMBER_PATTERN.test(trackingNumber))
      return { lookup: { kind: 'malformed', trackingNumber }, parcel: null };
    const parcel = byNumber.get(trackingNumber);
    if (!parcel) return { lookup: notFound(trackingNumber), parcel: null };
    return {
      lookup: {
        kind: 'found',
        result: publicResult(parcel),
        language: parcel.recipient?.language || null,
      },
      parcel,
    };
  });
}

/**
 * Looks several numbers up in one query (already normalised, as TrackingBatchSchema gives them);
 * one answer per number, in the order given.
 */
export async function lookupTrackingNumbers(numbers: string[]): Promise<TrackingLookup[]> {
  return (await readTrackingNumbers(numbers)).map((n) => n.lookup);
}

/** A number as the tracking page shows it: found, with all the page says of it, or not. */
export type TrackedNumber =
  | {
      kind: 'found';
      result: PublicTrackingResult;
      glance: TrackingGlance;
      /** The language the glance is written in. */
      language: Language;
      /** Its schema.org ParcelDelivery data. */
      delivery: ReturnType<typeof trackingDeliveryData>;
      /** What the recipient asked for, when this browser opened the parcel with the postcode. */
      savedPreferences: SerializedDeliveryPreferences | null;
    }
  | Exclude<TrackingLookup, { kind: 'found' }>;

/**
 * Everything the tracking page shows of the numbers asked for (already normalised, by
 * TrackingQuerySchema), from one read of their parcels: each found one at a glance with its
 * ParcelDelivery data, a single delivered parcel's glance saying who received it, and, for the
 * parcels this browser opened with the recipient's postcode (`opened`), what the recipient asked
 * for. Each is written in the language `languageFor` gives for its recipient's.
 */
export async function trackNumbers(
  numbers: readonly string[],
  {
    opened = [],
    languageFor,
  }: {
    opened?: readonly string[];
    languageFor: (recipientLanguage: string | null) => Language | Promise<Language>;
  },
): Promise<TrackedNumber[]> {
  const read = await readTrackingNumbers(numbers);
  return Promise.all(
    read.map(async ({ lookup, parcel }): Promise<TrackedNumber> => {
      if (lookup.kind !== 'found') return lookup;
      const { result } = lookup;
      const language = await languageFor(lookup.language);
      const words = wordsFor(language);
      return {
        kind: 'found',
        result,
        language,
        glance:
          read.length === 1 ? await lookupGlance(result, words) : trackingGlance(result, words),
        delivery: trackingDeliveryData(result),
        savedPreferences: opened.includes(result.parcel.trackingNumber)
          ? serializePreferences(parcel?.deliveryPreferences)
          : null,
      };
    }),
  );
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

/**
 * The parcel's ParcelDelivery data as its page shows it, for its e-mails: read by its number, or
 * from the parcel its caller has just read (`parcel`, with the fields of the public result);
 * null when it is gone.
 */
export async function deliveryDataFor(trackingNumber: string, parcel?: LeanParcel | null) {
  const read = parcel ?? (await findParcelByTrackingNumber(trackingNumber));
  return read ? trackingDeliveryData(publicResult(read)) : null;
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
  words: Words,
): string | null {
  if (!eta) return null;
  return words.t('onItsWayStop', {
    stop: eta.stopsBefore + 1,
    stops: eta.stops,
    window: windowPhrase(eta, timeZone, words)!,
  });
}

/**
 * The result at a glance, read from one place: the parcel's stored status (which every status
 * change, by event or by hand, keeps in step with the latest event) and its dates, in the
 * recipient's zone or, for the delivery, the zone it happened in. `receivedBy` is the delivered
 * parcel's proof's name, when one was recorded.
 */
export function trackingGlance(
  result: PublicTrackingResult,
  words: Words,
  { now = new Date(), receivedBy = null }: { now?: Date; receivedBy?: string | null } = {},
): TrackingGlance {
  const { lang } = words;
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
    headline: deliveryHeadline(input, words),
    steps: progressSteps(parcel.status, words),
    expected: expected ? longDay(expected.day, lang) : null,
    window: expected ? windowPhrase(expected.window, timeZone, words) : null,
    delivered: deliveredAt
      ? deliveredAtWords(new Date(deliveredAt), deliveredTimeZone, words)
      : null,
    receivedBy: receivedBy ? initials(receivedBy) : null,
    lastUpdated: updated ? longDateTime(updated, timeZone, lang) : null,
    timeZone,
    attempt: failed
      ? {
          reason: words.t(
            `reasons.${failed.reason && failed.reason in FAILURE_REASONS ? failed.reason : 'other'}`,
          ),
          at: failed.timestamp ? longDateTime(failed.timestamp, failed.timeZone, lang) : '',
          next: failed.nextAttemptDate ? longDay(failed.nextAttemptDate, lang) : null,
        }
      : null,
    onItsWay: onItsWay(parcel.eta, timeZone, words),
  };
}

/** The glance of one full result: a delivered parcel's proof says who received it. */
export async function lookupGlance(
  result: PublicTrackingResult,
  words: Words,
): Promise<TrackingGlance> {
  const proofs =
    result.parcel.status === 'Delivered'
      ? await listProofsByTrackingNumber(result.parcel.trackingNumber)
      : [];
  return trackingGlance(result, words, { receivedBy: proofs.at(-1)?.receivedBy ?? null });
}
