import mongoose, { Schema } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import {
  addressFields,
  iso,
  recordIds,
  registeredModel,
  serializedById,
} from '~/lib/records.server';
import { scopeFilter, type AccountScope } from '~/lib/tenancy.server';
import type { AccountAddress } from '~/schemas/account';
import type { PickupMissedReason } from '~/schemas/constants';
import { PICKUP_STATUSES, type PickupListQuery, type PickupStatus } from '~/schemas/pickup';

/**
 * Pickups: a courier sent to a shipper's address on a day, within a window, for the parcels it
 * names or a count of them. Scheduled until the courier collects (completed: a parcel of it scanned
 * Picked Up, or Collected on their run), comes back without (missed) or the shipper cancels.
 */
const addressSchema = new Schema({ ...addressFields }, { _id: false });

const pickupSchema = new Schema(
  {
    accountId: { type: Schema.Types.ObjectId, default: null },
    livemode: { type: Boolean, default: true },
    date: { type: String, required: true },
    window: {
      from: { type: String, required: true },
      until: { type: String, required: true },
    },
    address: { type: addressSchema, required: true },
    depotId: { type: Schema.Types.ObjectId, default: null },
    parcelIds: { type: [Schema.Types.ObjectId], default: [] },
    parcelCount: { type: Number, required: true },
    // The parcels scanned Picked Up so far: the pickup is done once they are all in.
    collectedParcelIds: { type: [Schema.Types.ObjectId], default: [] },
    // The count the courier said was handed over (Collected on their run).
    collectedCount: { type: Number },
    notes: { type: String, default: '' },
    status: { type: String, enum: PICKUP_STATUSES, default: 'scheduled' },
    // Not collected: why (PICKUP_MISSED_REASONS) and what the courier added.
    missedReason: { type: String },
    missedNote: { type: String },
    cancelledAt: { type: Date },
    completedAt: { type: Date },
  },
  { timestamps: true },
);
pickupSchema.index({ date: 1, depotId: 1 });
pickupSchema.index({ accountId: 1, date: -1 });
pickupSchema.index({ parcelIds: 1, status: 1 });

export const Pickup = registeredModel('Pickup', pickupSchema);

type LeanPickup = {
  _id: unknown;
  accountId?: unknown;
  livemode?: boolean | null;
  date: string;
  window: { from: string; until: string };
  address: AccountAddress;
  depotId?: unknown;
  parcelIds: unknown[];
  parcelCount: number;
  collectedParcelIds?: unknown[];
  collectedCount?: number | null;
  notes?: string | null;
  status: PickupStatus;
  missedReason?: PickupMissedReason | null;
  missedNote?: string | null;
  cancelledAt?: Date | null;
  completedAt?: Date | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

function serialize(doc: LeanPickup) {
  return {
    ...recordIds(doc._id),
    accountId: doc.accountId ? String(doc.accountId) : null,
    livemode: doc.livemode !== false,
    date: doc.date,
    window: { from: doc.window.from, until: doc.window.until },
    address: {
      address: doc.address.address ?? '',
      city: doc.address.city ?? '',
      region: doc.address.region ?? '',
      postalCode: doc.address.postalCode ?? '',
      country: doc.address.country ?? '',
    },
    depotId: doc.depotId ? String(doc.depotId) : null,
    parcelIds: doc.parcelIds.map(String),
    parcelCount: doc.parcelCount,
    collectedCount: Math.max(doc.collectedCount ?? 0, doc.collectedParcelIds?.length ?? 0),
    notes: doc.notes ?? '',
    status: doc.status,
    missedReason: doc.missedReason ?? null,
    cancelledAt: iso(doc.cancelledAt),
    completedAt: iso(doc.completedAt),
    createdAt: iso(doc.createdAt),
    updatedAt: iso(doc.updatedAt),
  };
}
export type SerializedPickup = ReturnType<typeof serialize>;

const oid = (id: string) => new mongoose.Types.ObjectId(id);

export async function insertPickup(input: {
  scope: AccountScope | null;
  date: string;
  window: { from: string; until: string };
  address: AccountAddress;
  depotId: string | null;
  parcelIds: string[];
  parcelCount: number;
  notes: string;
}): Promise<SerializedPickup> {
  const doc = await Pickup.create({
    accountId: input.scope ? oid(input.scope.accountId) : null,
    livemode: input.scope ? input.scope.livemode : true,
    date: input.date,
    window: input.window,
    address: input.address,
    depotId: input.depotId ? oid(input.depotId) : null,
    parcelIds: input.parcelIds.map(oid),
    parcelCount: input.parcelCount,
    notes: input.notes,
  });
  return serialize(doc.toObject() as LeanPickup);
}

export async function getPickup(id: string): Promise<SerializedPickup | null> {
  return serializedById(id, (id) => Pickup.findById(id).lean<LeanPickup>(), serialize);
}

/** Whether the pickup is the account's (any mode: the mode is checked with the record). */
export async function isAccountPickup(id: string, scope: AccountScope): Promise<boolean> {
  if (!isObjectId(id)) return false;
  return !!(await Pickup.exists({ _id: id, ...scopeFilter(scope) }));
}

/** An account's pickups (newest day first), or for staff every one, by day, depot and status. */
export async function listPickups(
  scope: AccountScope | null,
  query: PickupListQuery,
): Promise<SerializedPickup[]> {
  const filter: Record<string, unknown> = { ...scopeFilter(scope) };
  if (query.date) filter.date = query.date;
  if (query.depotId) filter.depotId = oid(query.depotId);
  if (query.status) filter.status = query.status;
  const docs = await Pickup.find(filter)
    .sort({ date: -1, 'window.from': 1, _id: 1 })
    .limit(500)
    .lean<LeanPickup[]>();
  return docs.map(serialize);
}

/** A pickup still scheduled, changed by `set`, as it is after; null when it is not scheduled. */
async function changeScheduled(
  _id: unknown,
  set: Record<string, unknown>,
): Promise<SerializedPickup | null> {
  const doc = await Pickup.findOneAndUpdate(
    { _id, status: 'scheduled' },
    { $set: set },
    { returnDocument: 'after' },
  ).lean<LeanPickup>();
  return doc ? serialize(doc) : null;
}

/** A scheduled pickup cancelled now; null when it is no longer scheduled. */
export async function markPickupCancelled(id: string, at: Date) {
  if (!isObjectId(id)) return null;
  return changeScheduled(id, { status: 'cancelled', cancelledAt: at });
}

/** Pickups by id, in no order. */
export async function getPickupsByIds(ids: string[]): Promise<SerializedPickup[]> {
  const docs = await Pickup.find({ _id: { $in: ids.filter(isObjectId).map(oid) } }).lean<
    LeanPickup[]
  >();
  return docs.map(serialize);
}

/**
 * A scheduled pickup closed by the courier: completed with the count handed over, or missed
 * with its reason. Null when it is no longer scheduled (closed once).
 */
export async function closePickup(
  id: string,
  at: Date,
  close:
    | { status: 'completed'; collectedCount: number }
    | { status: 'missed'; reason: PickupMissedReason; note: string },
) {
  if (!isObjectId(id)) return null;
  return changeScheduled(
    id,
    close.status === 'completed'
      ? { status: 'completed', completedAt: at, collectedCount: close.collectedCount }
      : { status: 'missed', missedReason: close.reason, missedNote: close.note },
  );
}

const addressKey = (address: { address?: string | null; postalCode?: string | null }) =>
  [address.address, address.postalCode]
    .map((part) => (part ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''))
    .join('|');

/**
 * A parcel picked up on `day`: it counts towards that day's pickups (scheduled or done) that
 * name it or, when none does, its account's (same mode) pickups of the day at its sender's
 * address that give only a count. Its first parcel scanned completes a scheduled pickup: the
 * pickups it completed, each once.
 */
export async function notePickupParcel(
  parcel: {
    id: string;
    accountId: string | null;
    livemode: boolean;
    sender: { address?: string | null; postalCode?: string | null } | null;
  },
  day: string,
  at: Date,
): Promise<SerializedPickup[]> {
  const parcelId = oid(parcel.id);
  const open = { $in: ['scheduled', 'completed'] as PickupStatus[] };
  // A parcel a pickup names counts there only; else towards the day's pickup at its address.
  let touched = await Pickup.find({ status: open, date: day, parcelIds: parcelId }, { _id: 1 })
    .sort({ _id: 1 })
    .lean<{ _id: unknown }[]>();
  if (!touched.length && parcel.accountId && parcel.sender) {
    const counted = await Pickup.find(
      {
        status: open,
        date: day,
        accountId: oid(parcel.accountId),
        livemode: parcel.livemode,
        'parcelIds.0': { $exists: false },
      },
      { _id: 1, address: 1 },
    )
      .sort({ _id: 1 })
      .lean<{ _id: unknown; address: AccountAddress }[]>();
    const here = addressKey(parcel.sender);
    touched = counted.filter((pickup) => addressKey(pickup.address) === here);
  }
  const completed: SerializedPickup[] = [];
  for (const { _id } of touched) {
    await Pickup.updateOne({ _id }, { $addToSet: { collectedParcelIds: parcelId } });
    const pickup = await changeScheduled(_id, { status: 'completed', completedAt: at });
    if (pickup) completed.push(pickup);
  }
  return completed;
}
