import { Schema } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import { registeredModel } from '~/lib/records.server';

/** Newsletter subscribers, one document per e-mail address (stored lower-cased). */
const subscriptionSchema = new Schema(
  {
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    source: { type: String, default: '' },
    clientAddress: { type: String },
    // The staff inbox: when and by whom it was marked handled (absent: not handled).
    handledAt: { type: Date },
    handledBy: { type: String },
  },
  { timestamps: true },
);
subscriptionSchema.index({ createdAt: -1, _id: -1 });

export const Subscription = registeredModel('Subscription', subscriptionSchema);

/**
 * Subscribes an address; subscribing again (in any letter case) keeps the one subscription.
 * `created` says whether the address is new; `id` is its subscription.
 */
export async function subscribeToNewsletter({
  email,
  source,
  clientAddress,
}: {
  email: string;
  source?: string;
  clientAddress?: string;
}): Promise<{ created: boolean; id: string | null }> {
  const normalized = email.trim().toLowerCase();
  try {
    const result = await Subscription.updateOne(
      { email: normalized },
      { $setOnInsert: { email: normalized, source: source ?? '', clientAddress } },
      { upsert: true },
    );
    return {
      created: result.upsertedCount > 0,
      id: result.upsertedId ? String(result.upsertedId) : null,
    };
  } catch (error) {
    // Two simultaneous first subscriptions: the unique index lets one win, the other is a repeat.
    if (isDuplicateKey(error)) return { created: false, id: null };
    throw error;
  }
}

export async function countSubscriptions({ email }: { email?: string } = {}) {
  return Subscription.countDocuments(email ? { email: email.trim().toLowerCase() } : {});
}
