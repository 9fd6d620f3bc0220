import mongoose, { Schema, type Types } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { iso, recordIds, registeredModel } from '~/lib/records.server';
import type { AccountScope } from '~/lib/tenancy.server';

/**
 * A bulk booking: the parcels an account booked at once from the portal, in the order of its
 * file, so that the page after it lists them and prints their labels together. Read only within
 * the account's own scope (another account's is not there).
 */
const batchSchema = new Schema(
  {
    accountId: { type: Schema.Types.ObjectId, required: true },
    livemode: { type: Boolean, default: true },
    userId: { type: String, required: true },
    parcelIds: { type: [Schema.Types.ObjectId], default: [] },
    totalAmount: { type: Number, required: true },
    currency: { type: String, required: true },
  },
  { timestamps: true, collection: 'booking_batches' },
);
batchSchema.index({ accountId: 1, livemode: 1, createdAt: -1 });

export const BookingBatch = registeredModel('BookingBatch', batchSchema);

type LeanBatch = {
  _id: Types.ObjectId;
  accountId: Types.ObjectId;
  livemode: boolean;
  userId: string;
  parcelIds: Types.ObjectId[];
  totalAmount: number;
  currency: string;
  createdAt?: Date;
};

function serialize(doc: LeanBatch) {
  return {
    ...recordIds(doc._id),
    parcelIds: doc.parcelIds.map(String),
    totalAmount: doc.totalAmount,
    currency: doc.currency,
    createdAt: iso(doc.createdAt),
  };
}
export type SerializedBookingBatch = ReturnType<typeof serialize>;

export async function insertBookingBatch(input: {
  id: string;
  scope: AccountScope;
  userId: string;
  parcelIds: string[];
  totalAmount: number;
  currency: string;
}) {
  await BookingBatch.create({
    _id: new mongoose.Types.ObjectId(input.id),
    accountId: new mongoose.Types.ObjectId(input.scope.accountId),
    livemode: input.scope.livemode,
    userId: input.userId,
    parcelIds: input.parcelIds.map((id) => new mongoose.Types.ObjectId(id)),
    totalAmount: input.totalAmount,
    currency: input.currency,
  });
}

export async function removeBookingBatch(id: string) {
  await BookingBatch.deleteOne({ _id: new mongoose.Types.ObjectId(id) });
}

/** The account's batch with this id, or null (another account's or mode's included). */
export async function getBookingBatch(id: string, scope: AccountScope) {
  if (!isObjectId(id)) return null;
  const doc = await BookingBatch.findOne({
    _id: new mongoose.Types.ObjectId(id),
    accountId: new mongoose.Types.ObjectId(scope.accountId),
    livemode: scope.livemode,
  }).lean<LeanBatch>();
  return doc ? serialize(doc) : null;
}
