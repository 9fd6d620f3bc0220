import mongoose from 'mongoose';
import { Parcel } from './parcel.server';

/**
 * The parcels as a monthly statement sees them: an account's live parcels booked (created)
 * within a period, oldest first, with what they are billed at.
 */
export type StatementParcelDoc = {
  _id: unknown;
  trackingNumber: string;
  createdAt: Date;
  serviceType?: string | null;
  recipient?: { name?: string | null } | null;
  cost?: number | null;
  price?: { amount?: number | null; currency?: string | null } | null;
};

export function listParcelsBooked(accountId: string, start: Date, end: Date) {
  return Parcel.find(
    {
      accountId: new mongoose.Types.ObjectId(accountId),
      livemode: { $ne: false },
      createdAt: { $gte: start, $lt: end },
    },
    { trackingNumber: 1, createdAt: 1, serviceType: 1, 'recipient.name': 1, cost: 1, price: 1 },
  )
    .sort({ createdAt: 1, _id: 1 })
    .lean<StatementParcelDoc[]>();
}
