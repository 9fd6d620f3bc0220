import { randomInt } from 'node:crypto';
import { isDuplicateKey } from '~/lib/db.server';
import { eventStatusOf } from '~/schemas/constants';
import { expectedWindow } from '~/lib/parcel-delivery-data.server';
import { recipientStopIndex, recipientTimeZone } from '~/lib/address-time-zone.server';
import { s10CheckDigit } from '~/utils/tracking-number';
import { iso } from '~/lib/records.server';
import {
  type LeanParcel,
  Parcel,
  type SerializedParcel,
  eventTimeZone,
  serializeEta,
  serializeParcel,
} from './parcel.server';

/**
 * Parcels by their tracking numbers: a new number (three letters, eight digits and the S10 check
 * digit) and the insert that retries on a collision, the lookups of the public tracking page and
 * the API, and the numbers an import finds stored.
 */

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function generateTrackingNumber(): string {
  let letters = '';
  for (let i = 0; i < 3; i++) letters += LETTERS[randomInt(LETTERS.length)];
  const digits = String(randomInt(100_000_000)).padStart(8, '0');
  return letters + digits + s10CheckDigit(digits);
}

/**
 * Inserts a parcel under a fresh tracking number, retrying on the (rare) collision the unique
 * index reports. `generate` is injectable so the retry can be tested.
 */
export async function insertWithTrackingNumber<T>(
  insert: (trackingNumber: string) => Promise<T>,
  generate: () => string = generateTrackingNumber,
  attempts = 5,
): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await insert(generate());
    } catch (error) {
      if (!isDuplicateKey(error, 'trackingNumber')) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/** Only what the public result shows: no e-mails, phones or costs leave the database. */
const PUBLIC_TRACKING_PROJECTION = {
  trackingNumber: 1,
  status: 1,
  serviceType: 1,
  estimatedDelivery: 1,
  actualDelivery: 1,
  deliveryWindow: 1,
  updatedAt: 1,
  eta: 1,
  // The recipient's address is read for their zone and the town shown; its street never leaves.
  'recipient.name': 1,
  'recipient.address': 1,
  'recipient.city': 1,
  'recipient.region': 1,
  'recipient.postalCode': 1,
  'recipient.country': 1,
  'recipient.timeZone': 1,
  // The language the tracking page speaks to the recipient's parcel (never shown).
  'recipient.language': 1,
  'destinations.name': 1,
  'destinations.address': 1,
  'destinations.city': 1,
  'destinations.region': 1,
  'destinations.postalCode': 1,
  'destinations.country': 1,
  'sender.address': 1,
  deliveryPreferences: 1,
  // Whose it is: an e-mail about a test parcel goes to its account's test log.
  accountId: 1,
  livemode: 1,
  events: 1,
} as const;

/**
 * The public tracking lookup, of a number already normalised (normalizeTrackingNumber). It is
 * the hottest query of the site, so it goes through the driver directly, skipping mongoose's
 * query layer.
 */
export async function findParcelByTrackingNumber(trackingNumber: string) {
  return Parcel.collection.findOne<LeanParcel>(
    { trackingNumber },
    { projection: PUBLIC_TRACKING_PROJECTION },
  );
}

/** The id of the parcel with this tracking number (already normalised), or null. */
export async function findParcelIdByTrackingNumber(
  trackingNumber: string,
  scope: Record<string, unknown> = {},
): Promise<string | null> {
  const doc = await Parcel.collection.findOne<{ _id: unknown }>(
    { trackingNumber, ...scope },
    { projection: { _id: 1 } },
  );
  return doc ? String(doc._id) : null;
}

/** Several public lookups in one query: the parcels among `trackingNumbers` (already normalised). */
export async function findParcelsByTrackingNumbers(trackingNumbers: string[]) {
  if (!trackingNumbers.length) return [];
  return Parcel.collection
    .find<LeanParcel>(
      { trackingNumber: { $in: trackingNumbers } },
      { projection: PUBLIC_TRACKING_PROJECTION },
    )
    .toArray();
}

/**
 * What a visitor may see of a parcel: no e-mails, phones or costs; the recipient's address as
 * stored here, for the service to mask (public-tracking.server.ts) before it leaves. `timeZone` is
 * the recipient's, in which the window and the promises are read; `requestedDate` and
 * `holdAtDepot` what the recipient asked for, which move the expected day (not what else they
 * asked: that stays behind the postcode).
 */
/** `eta` when the parcel is out on a started run, nothing otherwise. */
function withEta(parcel: LeanParcel): { eta?: NonNullable<ReturnType<typeof serializeEta>> } {
  const eta = serializeEta(parcel);
  return eta ? { eta } : {};
}

export function toPublicTrackingResult(parcel: LeanParcel) {
  const timeZone = recipientTimeZone(parcel);
  const stop = recipientStopIndex(parcel);
  const destination = stop === null ? null : (parcel.destinations?.[stop] ?? null);
  return {
    parcel: {
      trackingNumber: parcel.trackingNumber,
      status: parcel.status ?? 'Pending',
      recipient: { name: parcel.recipient?.name ?? '', address: parcel.recipient?.address ?? '' },
      sender: { address: parcel.sender?.address ?? '' },
      serviceType: parcel.serviceType ?? 'Standard',
      estimatedDelivery: iso(parcel.estimatedDelivery),
      deliveryWindow: expectedWindow(parcel, timeZone),
      actualDelivery: iso(parcel.actualDelivery),
      updatedAt: iso(parcel.updatedAt),
      timeZone,
      requestedDate: parcel.deliveryPreferences?.updatedAt
        ? (parcel.deliveryPreferences.requestedDate ?? null)
        : null,
      holdAtDepot: !!parcel.deliveryPreferences?.holdAtDepot,
      // Out on a started run: its stop's window and place, never the courier's or other stops.
      ...withEta(parcel),
    },
    /** The recipient's address parts, else their stop's: for the service to mask. */
    place: {
      address: parcel.recipient?.address ?? '',
      city: parcel.recipient?.city || destination?.city || '',
      region: parcel.recipient?.region || destination?.region || '',
      postalCode: parcel.recipient?.postalCode || destination?.postalCode || '',
      country: parcel.recipient?.country || destination?.country || '',
    },
    events: [...(parcel.events ?? [])]
      .sort((a, b) => new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime())
      .map((event) => ({
        id: String(event._id),
        ...eventStatusOf(event),
        location: event.location ?? '',
        description: event.description ?? '',
        timestamp: iso(event.timestamp),
        timeZone: eventTimeZone(event),
        reason: event.reason ?? null,
        nextAttemptDate: event.nextAttemptDate ?? null,
      })),
  };
}
/** The public result as a visitor gets it: the recipient's address masked, `place` gone. */
export type PublicTrackingResult = Omit<ReturnType<typeof toPublicTrackingResult>, 'place'>;

const LOOKUP_CHUNK = 1000;

/** The tracking numbers among `numbers` that parcels already have. */
export async function storedTrackingNumbers(numbers: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += LOOKUP_CHUNK) {
    const docs = await Parcel.collection
      .find<{ trackingNumber: string }>(
        { trackingNumber: { $in: numbers.slice(i, i + LOOKUP_CHUNK) } },
        { projection: { _id: 0, trackingNumber: 1 } },
      )
      .toArray();
    for (const doc of docs) found.add(doc.trackingNumber);
  }
  return found;
}

/** The stored parcels among `numbers` (without their events), by tracking number. */
export async function parcelsByTrackingNumber(
  numbers: string[],
): Promise<Map<string, SerializedParcel>> {
  const found = new Map<string, SerializedParcel>();
  for (let i = 0; i < numbers.length; i += LOOKUP_CHUNK) {
    const docs = await Parcel.collection
      .find<LeanParcel>(
        { trackingNumber: { $in: numbers.slice(i, i + LOOKUP_CHUNK) } },
        { projection: { events: 0 } },
      )
      .toArray();
    for (const doc of docs) found.set(doc.trackingNumber, serializeParcel(doc, { events: false }));
  }
  return found;
}

/** What the recipient's postcode check and their delivery preferences need of a parcel. */
export async function findParcelForRecipient(trackingNumber: string) {
  return Parcel.collection.findOne<LeanParcel>(
    { trackingNumber },
    {
      projection: {
        trackingNumber: 1,
        status: 1,
        recipient: 1,
        destinations: 1,
        deliveryPreferences: 1,
        estimatedDelivery: 1,
        serviceType: 1,
      },
    },
  );
}
