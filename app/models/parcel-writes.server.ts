import { toMajor, type Money } from '~/utils/money';
import mongoose from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { StaleRecordError } from '~/lib/errors.server';
import { recordDeletion, setIfFound, withChange, withChangeIf } from '~/lib/changes.server';
import {
  PARCEL_CREATION_COST,
  PARCEL_TO_EVENT_STATUS,
  type ParcelStatus,
} from '~/schemas/constants';
import {
  defaultDestination,
  type ParcelCreateInput,
  type ParcelImportRow,
  type ParcelUpdateInput,
} from '~/schemas/parcel';
import { env } from '~/lib/env.server';
import { deliveryFactsOf } from '~/lib/delivery-facts.server';
import {
  type Contact,
  type LeanDeliveryPreferences,
  type LeanParcel,
  Parcel,
  type SerializedParcel,
  serializeParcel,
} from './parcel.server';
import { insertWithTrackingNumber } from './parcel-tracking-numbers.server';
import { keepDeliveryFactsTrue } from './parcel-delivery-facts.server';

/**
 * Writing parcels: a new one, an import's, the fields changed (with its status event), the
 * recipient's delivery preferences and a deletion; each in one update, with its change number.
 */

/** A delivery window as stored: two instants, or none. */
export type StoredWindow = { from: Date; until: Date } | null;

/** Stores a new parcel: status 'Pending', the fixed creation cost, a fresh tracking number. */
export async function insertParcel(
  input: Omit<ParcelCreateInput, 'deliveryWindow' | 'quoteId'> & {
    deliveryWindow?: StoredWindow;
    livemode?: boolean;
    price?: Money;
    payment?: { status: 'pending'; expiresAt: Date };
  },
): Promise<SerializedParcel> {
  const { deliveryWindow, ...fields } = input;
  const doc = await withChange((changeSeq) =>
    insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        ...fields,
        ...(deliveryWindow ? { deliveryWindow } : {}),
        trackingNumber,
        status: 'Pending',
        // A parcel booked at a price costs it (in major units, as the spec's `cost` is).
        cost: input.price ? toMajor(input.price) : PARCEL_CREATION_COST,
        changeSeq,
      }),
    ),
  );
  return serializeParcel(doc.toObject() as LeanParcel);
}

/** A parcel as the CSV import stores it: an imported row with its tracking number and times. */
export type ImportedParcel = Omit<ParcelImportRow, 'trackingNumber' | 'createdAt'> & {
  trackingNumber: string;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The stored document of an imported parcel, as mongoose would cast it (e-mails lower-cased, an id
 * for each destination, no events, version 0), built directly: casting ten thousand documents
 * through mongoose's subdocuments takes seconds. The input is already validated by
 * ParcelImportRowSchema; tests check that the result equals mongoose's own cast.
 */
export function importedParcelDocument(input: ImportedParcel) {
  const contact = (c: Contact) => ({
    name: c.name,
    email: c.email.toLowerCase(),
    phone: c.phone,
    address: c.address,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country,
    timeZone: c.timeZone,
  });
  return {
    _id: new mongoose.Types.ObjectId(),
    trackingNumber: input.trackingNumber,
    sender: contact(input.sender),
    recipient: { ...contact(input.recipient), language: input.recipient.language ?? '' },
    weight: input.weight,
    dimensions: {
      length: input.dimensions.length,
      width: input.dimensions.width,
      height: input.dimensions.height,
    },
    serviceType: input.serviceType,
    status: input.status,
    priority: input.priority,
    estimatedDelivery: input.estimatedDelivery,
    ...(input.actualDelivery ? { actualDelivery: input.actualDelivery } : {}),
    cost: input.cost,
    destinations: input.destinations.map((d) => ({
      name: d.name,
      address: d.address,
      city: d.city,
      ...(d.region ? { region: d.region } : {}),
      country: d.country,
      postalCode: d.postalCode,
      _id: new mongoose.Types.ObjectId(),
    })),
    events: [],
    // The import's change number is given when it is written (insertImportedParcels).
    changeSeq: 0,
    // An import is the staff's: the courier's own live parcels (an account is set afterwards;
    // the portal's bulk booking sets its own).
    accountId: null as mongoose.Types.ObjectId | null,
    livemode: true,
    createdAt: input.createdAt,
    updatedAt: input.updatedAt,
    __v: 0,
  };
}

/**
 * Inserts imported parcels in one ordered bulk write, as one change: a sync sees all of them or,
 * until the write is done, none (ordered among themselves by id). When it fails part-way, the
 * ones it wrote are deleted again (there are no multi-document transactions on a standalone
 * server) and the error is thrown.
 */
export async function insertImportedParcels(
  docs: Array<ReturnType<typeof importedParcelDocument>>,
) {
  // A lease long enough for the largest file on a slow machine.
  const leaseMs = 60_000 + docs.length * 10;
  await withChange(
    async (changeSeq) => {
      try {
        const zone = env.COMPANY_TIMEZONE;
        await Parcel.collection.insertMany(
          docs.map((doc) => ({ ...doc, changeSeq, deliveryFacts: deliveryFactsOf(doc, zone) })),
          { ordered: true },
        );
      } catch (error) {
        const ids = docs.map((d) => d._id);
        for (let i = 0; i < ids.length; i += 1000)
          await Parcel.collection.deleteMany({ _id: { $in: ids.slice(i, i + 1000) } });
        throw error;
      }
    },
    { leaseMs },
  );
}

/** The changes to a parcel as stored: its window as instants, or null to remove it. */
export type ParcelFieldChanges = Omit<ParcelUpdateInput, 'deliveryWindow'> & {
  deliveryWindow?: StoredWindow;
};

/** Fields the API answers and takes back, never stored. */
const ANSWERED_ONLY = new Set(['phoneE164', 'phoneProblem']);

/** Dotted `$set` paths for the fields given, so nested fields not given stay as they are. */
function updateFields(input: ParcelFieldChanges): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const key of ['sender', 'recipient', 'dimensions'] as const) {
    for (const [field, value] of Object.entries(input[key] ?? {})) {
      if (value !== undefined && !ANSWERED_ONLY.has(field)) set[`${key}.${field}`] = value;
    }
  }
  for (const key of ['weight', 'serviceType', 'status', 'priority', 'estimatedDelivery'] as const) {
    if (input[key] !== undefined) set[key] = input[key];
  }
  if (input.destinations) set.destinations = input.destinations;
  if (input.deliveryWindow) set.deliveryWindow = input.deliveryWindow;
  if (input.accountId !== undefined) set.accountId = input.accountId;
  if (input.reference !== undefined) set.reference = input.reference;
  return set;
}

/**
 * As on creation, a parcel left without destinations goes to its recipient: an empty list becomes
 * the recipient's destination (the recipient as changed by this update, or as stored), for the
 * edit page and PUT /api/parcels/:id alike.
 */
async function withDefaultDestination(
  id: string,
  input: ParcelFieldChanges,
): Promise<ParcelFieldChanges> {
  if (!input.destinations || input.destinations.length > 0) return input;
  let name = input.recipient?.name;
  let address = input.recipient?.address;
  if (!name || !address) {
    const stored = await Parcel.findById(id, { recipient: 1 }).lean<LeanParcel>();
    name ||= stored?.recipient?.name ?? '';
    address ||= stored?.recipient?.address ?? '';
  }
  if (!name || !address) return input;
  return { ...input, destinations: [defaultDestination({ name, address })] };
}

/** The event recorded when staff set a parcel's status by hand, as part of change `changeSeq`. */
function statusEvent(status: string, changeSeq: number) {
  const now = new Date();
  const eventStatus = PARCEL_TO_EVENT_STATUS[status as ParcelStatus];
  return {
    _id: new mongoose.Types.ObjectId(),
    status: eventStatus ?? 'Custom Status',
    ...(eventStatus ? {} : { customStatus: status }),
    description: eventStatus ? '' : `Status changed to ${status}`,
    location: '',
    timestamp: now,
    timeZone: env.COMPANY_TIMEZONE,
    createdAt: now,
    updatedAt: now,
    changeSeq,
  };
}

/**
 * Applies the changes in one atomic update. Setting 'Delivered' records the delivery time unless
 * one is already stored ($min sets an absent field and keeps an earlier one); any other status
 * clears it, because the parcel is no longer delivered. An empty destination list becomes the
 * recipient's destination (withDefaultDestination). Returns the parcel as stored, and the status
 * it had before when the changes name one; null when there is no such parcel.
 */
export async function updateParcelFields(
  id: string,
  changes: ParcelFieldChanges,
  { version }: { version?: number | null } = {},
): Promise<{ parcel: SerializedParcel; previousStatus: string | null } | null> {
  if (!isObjectId(id)) return null;
  // With a version (the change number it was read at), only that version is changed: when
  // another change came first, StaleRecordError.
  const filter = { _id: id, ...(version == null ? {} : { changeSeq: version }) };
  const stale = async () => {
    if (await Parcel.exists({ _id: id })) throw new StaleRecordError('parcel');
    return null;
  };
  const input = await withDefaultDestination(id, changes);
  const set = updateFields(input);
  const update: Record<string, unknown> = {};
  const unset: Record<string, 1> = {};
  if (input.status === 'Delivered') update.$min = { actualDelivery: new Date() };
  else if (input.status) unset.actualDelivery = 1;
  if (input.deliveryWindow === null) unset.deliveryWindow = 1;
  if (Object.keys(unset).length) update.$unset = unset;
  if (Object.keys(set).length) update.$set = set;
  if (!Object.keys(update).length) {
    const unchanged = await Parcel.findOne(filter).lean<LeanParcel>();
    if (!unchanged) return stale();
    return { parcel: serializeParcel(unchanged), previousStatus: null };
  }
  const written = await withChangeIf(
    () => Parcel.exists(filter),
    async (changeSeq) => {
      const previous = input.status
        ? await Parcel.findById(id, { status: 1 }).lean<LeanParcel>()
        : null;
      // A status set by hand is also a tracking event, so the status and the latest event that the
      // recipient reads always agree.
      if (input.status && previous && previous.status !== input.status)
        update.$push = { events: { $each: [statusEvent(input.status, changeSeq)], $position: 0 } };
      update.$set = { ...(update.$set as object), changeSeq };
      const doc = await Parcel.findOneAndUpdate(filter, update, {
        returnDocument: 'after',
        runValidators: true,
      }).lean<LeanParcel>();
      if (!doc) return null;
      // A status set by hand changes the delivery facts too.
      if (input.status) await keepDeliveryFactsTrue(doc);
      return { parcel: serializeParcel(doc), previousStatus: previous?.status ?? null };
    },
  );
  return written ?? stale();
}

/**
 * Deletes a parcel; its tracking events are embedded in it and go with it. A sync lists it as
 * deleted (its events' syncs answer 404 from then on).
 */
export async function removeParcel(id: string): Promise<SerializedParcel | null> {
  if (!isObjectId(id)) return null;
  return withChangeIf(
    () => Parcel.exists({ _id: id }),
    async (changeSeq) => {
      const doc = await Parcel.findByIdAndDelete(id).lean<LeanParcel>();
      if (!doc) return null;
      await recordDeletion({ kind: 'parcel', recordId: String(doc._id), changeSeq });
      return serializeParcel(doc);
    },
  );
}

/**
 * Replaces what the recipient asked for; a day asked for becomes the parcel's estimated day (a
 * window on another day goes). The parcel as stored after, or null when it is gone.
 */
export async function setDeliveryPreferences(
  id: string,
  preferences: Omit<LeanDeliveryPreferences, 'updatedAt'>,
): Promise<SerializedParcel | null> {
  if (!isObjectId(id)) return null;
  const set: Record<string, unknown> = {
    deliveryPreferences: { ...preferences, updatedAt: new Date() },
  };
  const update: Record<string, unknown> = { $set: set };
  if (preferences.requestedDate) {
    const day = new Date(`${preferences.requestedDate}T00:00:00.000Z`);
    const stored = await Parcel.findById(id, { estimatedDelivery: 1 }).lean<LeanParcel>();
    const storedDay = stored?.estimatedDelivery?.toISOString().slice(0, 10);
    if (storedDay !== preferences.requestedDate) {
      set.estimatedDelivery = day;
      update.$unset = { deliveryWindow: 1 };
    }
  }
  const doc = await withChange((changeSeq) =>
    Parcel.findByIdAndUpdate(
      id,
      { ...update, $set: { ...set, changeSeq } },
      { returnDocument: 'after', runValidators: true },
    ).lean<LeanParcel>(),
  );
  return doc ? serializeParcel(doc) : null;
}

/** A card booking's payment as it starts: Stripe's Checkout session, its page and its deadline. */
export async function startParcelPayment(
  id: string,
  payment: { checkoutUrl: string; sessionId: string; expiresAt: Date },
): Promise<SerializedParcel | null> {
  return changePendingPayment(id, { ...payment, status: 'pending' }, { pendingOnly: false });
}

/**
 * Moves a pending card payment to paid or expired, in one update on the condition that it is
 * still pending: an event replayed, or one about a payment already settled, changes nothing
 * (null). The parcel after the change.
 */
export async function settleParcelPayment(
  id: string,
  outcome: { status: 'paid'; paidAt: Date } | { status: 'expired' },
): Promise<SerializedParcel | null> {
  return changePendingPayment(id, outcome, { pendingOnly: true });
}

async function changePendingPayment(
  id: string,
  fields: Record<string, unknown>,
  { pendingOnly }: { pendingOnly: boolean },
): Promise<SerializedParcel | null> {
  if (!isObjectId(id)) return null;
  const filter = { _id: id, ...(pendingOnly ? { 'payment.status': 'pending' as const } : {}) };
  const set = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`payment.${k}`, v]));
  return setIfFound(Parcel, filter, set, (doc: LeanParcel) => serializeParcel(doc));
}
