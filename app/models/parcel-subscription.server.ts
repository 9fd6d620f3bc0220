import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import { MAX_PARCEL_SUBSCRIBERS } from '~/schemas/public-forms';
import { registeredModel } from '~/lib/records.server';

/**
 * Visitors who follow a parcel by e-mail (double opt-in): one document per parcel and address.
 *
 * - `pending`: asked for from the tracking page or the API; a confirmation e-mail is on its way.
 * - `confirmed`: the link in it was followed; every new event of the parcel e-mails the address.
 * - `ended`: the parcel was delivered (after the e-mail about that); `unsubscribed`: by its link.
 *
 * At most MAX_PARCEL_SUBSCRIBERS pending or confirmed subscriptions per parcel: each holds one of
 * the parcel's numbered slots (`slot`, unique and sparse), so the limit holds however many
 * requests arrive at once. The links in e-mails carry tokens that are HMACs of the subscription's
 * id under the server's secret (services/parcel-subscriptions.server.ts): nothing stored grants
 * confirming or unsubscribing.
 * Every document expires (a TTL index): unconfirmed after CONFIRM_HOURS, confirmed ones some
 * months after their last e-mail, ended and unsubscribed ones after a month.
 */
export const SUBSCRIPTION_STATUSES = ['pending', 'confirmed', 'ended', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const CONFIRM_HOURS = 48;
const HOUR = 60 * 60 * 1000;
const CONFIRMED_KEEP = 90 * 24 * HOUR;
const FINISHED_KEEP = 30 * 24 * HOUR;

const parcelSubscriptionSchema = new Schema(
  {
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel', required: true },
    trackingNumber: { type: String, required: true, uppercase: true, trim: true },
    email: { type: String, required: true, lowercase: true, trim: true },
    status: { type: String, enum: SUBSCRIPTION_STATUSES, default: 'pending' },
    /** The language the visitor asked in: their confirmation and updates are written in it. */
    language: { type: String },
    /** `<parcelId>:<n>` while pending or confirmed, n < MAX_PARCEL_SUBSCRIBERS. */
    slot: { type: String },
    confirmedAt: { type: Date },
    endedAt: { type: Date },
    unsubscribedAt: { type: Date },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true },
);
parcelSubscriptionSchema.index({ parcelId: 1, email: 1 }, { unique: true });
parcelSubscriptionSchema.index({ slot: 1 }, { unique: true, sparse: true });
parcelSubscriptionSchema.index({ parcelId: 1, status: 1 });
parcelSubscriptionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type SubscriptionSchema = InferSchemaType<typeof parcelSubscriptionSchema>;
export const ParcelSubscription = registeredModel(
  'ParcelSubscription',
  parcelSubscriptionSchema,
  'parcel_subscriptions',
);

type LeanSubscription = SubscriptionSchema & { _id: mongoose.Types.ObjectId };

/**
 * Gives the subscription `id` (or a new one, `insert`) a free slot of its parcel and makes it
 * pending. False when the parcel's slots are all taken.
 */
async function takeSlot(
  parcelId: string,
  pending: Record<string, unknown>,
  existing: { id: string } | { insert: Record<string, unknown> },
): Promise<boolean> {
  for (let n = 0; n < MAX_PARCEL_SUBSCRIBERS; n += 1) {
    const slot = `${parcelId}:${n}`;
    try {
      if ('id' in existing) {
        await ParcelSubscription.updateOne(
          { _id: existing.id },
          { $set: { ...pending, slot }, $unset: { confirmedAt: 1, endedAt: 1, unsubscribedAt: 1 } },
        );
      } else {
        await ParcelSubscription.create({ ...existing.insert, ...pending, slot });
      }
      return true;
    } catch (error) {
      if (isDuplicateKey(error, 'slot')) continue;
      throw error;
    }
  }
  return false;
}

/**
 * Makes `email`'s subscription to the parcel pending, with a fresh deadline to confirm: a new
 * one, a lapsed one brought back, or a pending one asked for again. Returns its id, or null when
 * nothing is to be confirmed (the address already follows the parcel, all the parcel's slots are
 * taken, or the same address asked at the same moment).
 */
export async function openParcelSubscription({
  parcelId,
  trackingNumber,
  email,
  language,
}: {
  parcelId: string;
  trackingNumber: string;
  email: string;
  language?: string;
}): Promise<string | null> {
  const now = new Date();
  // Requests that were never confirmed give their slots back now rather than when the TTL
  // monitor gets to them.
  await ParcelSubscription.deleteMany({ parcelId, status: 'pending', expiresAt: { $lte: now } });
  const pending = {
    status: 'pending',
    language,
    expiresAt: new Date(now.getTime() + CONFIRM_HOURS * HOUR),
  };
  const existing = await ParcelSubscription.findOne({ parcelId, email }).lean<LeanSubscription>();
  if (existing?.status === 'confirmed') return null;
  if (existing?.status === 'pending') {
    // Asked again before confirming: the same subscription, a fresh link and a new deadline.
    const id = String(existing._id);
    await ParcelSubscription.updateOne({ _id: id, status: 'pending' }, { $set: pending });
    return id;
  }
  if (existing) {
    const id = String(existing._id);
    return (await takeSlot(parcelId, pending, { id })) ? id : null;
  }
  const newId = new mongoose.Types.ObjectId();
  try {
    const insert = { _id: newId, parcelId, trackingNumber, email };
    return (await takeSlot(parcelId, pending, { insert })) ? String(newId) : null;
  } catch (error) {
    // The same address asked for the same parcel twice at once: the other request has it.
    if (isDuplicateKey(error)) return null;
    throw error;
  }
}

export type SubscriptionLink = {
  id: string;
  trackingNumber: string;
  email: string;
  /** 'expired': a pending subscription past its confirmation deadline. */
  state: SubscriptionStatus | 'expired';
};

/** A subscription as its links show it; null when it is gone. */
export async function getSubscriptionLink(id: string): Promise<SubscriptionLink | null> {
  const sub = await ParcelSubscription.findById(id).lean<LeanSubscription>();
  if (!sub) return null;
  const expired = sub.status === 'pending' && sub.expiresAt.getTime() <= Date.now();
  return {
    id,
    trackingNumber: sub.trackingNumber,
    email: sub.email,
    state: expired ? 'expired' : (sub.status as SubscriptionStatus),
  };
}

export type StoredParcelSubscription = {
  id: string;
  parcelId: string;
  trackingNumber: string;
  email: string;
  status: SubscriptionStatus;
  expiresAt: Date;
  /** The language the visitor asked in (none for subscriptions from before it was kept). */
  language: string | null;
};

export async function getParcelSubscription(id: string): Promise<StoredParcelSubscription | null> {
  const sub = await ParcelSubscription.findById(id).lean<LeanSubscription>();
  if (!sub) return null;
  return {
    id,
    parcelId: String(sub.parcelId),
    trackingNumber: sub.trackingNumber,
    email: sub.email,
    status: sub.status as SubscriptionStatus,
    expiresAt: sub.expiresAt,
    language: sub.language ?? null,
  };
}

/** Confirms a pending subscription within its deadline. */
export async function confirmSubscription(id: string): Promise<void> {
  const now = new Date();
  await ParcelSubscription.updateOne(
    { _id: id, status: 'pending', expiresAt: { $gt: now } },
    {
      $set: {
        status: 'confirmed',
        confirmedAt: now,
        expiresAt: new Date(now.getTime() + CONFIRMED_KEEP),
      },
    },
  );
}

/** Ends a subscription for good (its slot is given back); repeating it changes nothing. */
export async function endSubscriptionByUnsubscribe(id: string): Promise<void> {
  const now = new Date();
  await ParcelSubscription.updateOne(
    { _id: id, status: { $ne: 'unsubscribed' } },
    {
      $set: {
        status: 'unsubscribed',
        unsubscribedAt: now,
        expiresAt: new Date(now.getTime() + FINISHED_KEEP),
      },
      $unset: { slot: 1 },
    },
  );
}

/** How many people follow a parcel (confirmed), and how many have yet to confirm. */
export async function countParcelSubscribers(parcelId: string) {
  const [confirmed, pending] = await Promise.all([
    ParcelSubscription.countDocuments({ parcelId, status: 'confirmed' }),
    ParcelSubscription.countDocuments({
      parcelId,
      status: 'pending',
      expiresAt: { $gt: new Date() },
    }),
  ]);
  return { confirmed, pending };
}

/** The ids of the parcel's confirmed subscriptions. */
export async function listConfirmedSubscriptions(parcelId: string): Promise<string[]> {
  const subs = await ParcelSubscription.find({ parcelId, status: 'confirmed' }, { _id: 1 }).lean<
    Array<{ _id: unknown }>
  >();
  return subs.map((sub) => String(sub._id));
}

/** The parcel was delivered: its pending and confirmed subscriptions end. */
export async function endParcelSubscriptions(parcelId: string): Promise<void> {
  const now = new Date();
  await ParcelSubscription.updateMany(
    { parcelId, status: { $in: ['pending', 'confirmed'] } },
    {
      $set: { status: 'ended', endedAt: now, expiresAt: new Date(now.getTime() + FINISHED_KEEP) },
      $unset: { slot: 1 },
    },
  );
}

/** Confirmed subscriptions that just got an e-mail are kept for another stretch. */
export async function keepConfirmedSubscriptions(parcelId: string): Promise<void> {
  await ParcelSubscription.updateMany(
    { parcelId, status: 'confirmed' },
    { $set: { expiresAt: new Date(Date.now() + CONFIRMED_KEEP) } },
  );
}
