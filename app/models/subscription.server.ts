import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import { PUBLIC_FORM_RATE_LIMIT } from '~/schemas/public-forms';
import { env } from '~/lib/env.server';
import { emailLayout, escapeHtml, sendMail } from '~/services/mailer.server';
import { RateLimit } from '~/lib/rate-limit.server';

export const newsletterLimiter = new RateLimit(
  'newsletter',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
);

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

type SubscriptionSchema = InferSchemaType<typeof subscriptionSchema>;

export const Subscription: Model<SubscriptionSchema> =
  (mongoose.models.Subscription as Model<SubscriptionSchema>) ??
  mongoose.model('Subscription', subscriptionSchema);

/**
 * Subscribes an address; subscribing again (in any letter case) keeps the one subscription.
 * `created` says whether the address is new.
 */
export async function subscribeToNewsletter({
  email,
  source,
  clientAddress,
}: {
  email: string;
  source?: string;
  clientAddress?: string;
}): Promise<{ created: boolean }> {
  const normalized = email.trim().toLowerCase();
  try {
    const result = await Subscription.updateOne(
      { email: normalized },
      { $setOnInsert: { email: normalized, source: source ?? '', clientAddress } },
      { upsert: true },
    );
    return { created: result.upsertedCount > 0 };
  } catch (error) {
    // Two simultaneous first subscriptions: the unique index lets one win, the other is a repeat.
    if (isDuplicateKey(error)) return { created: false };
    throw error;
  }
}

export async function countSubscriptions({ email }: { email?: string } = {}) {
  return Subscription.countDocuments(email ? { email: email.trim().toLowerCase() } : {});
}

/** Tells the support team about a new subscriber; failures are logged, not thrown. */
export async function notifySupportOfSubscription({ email }: { email: string }): Promise<boolean> {
  const subject = `[Newsletter] New subscriber: ${email}`;
  try {
    await sendMail({
      to: env.COMPANY_EMAIL,
      subject,
      text: `${email} subscribed to the ${env.COMPANY_NAME} newsletter.`,
      html: emailLayout(
        'New newsletter subscriber',
        `<p>${escapeHtml(email)} subscribed to the newsletter.</p>`,
      ),
    });
    return true;
  } catch (error) {
    console.warn(
      `Could not e-mail the new subscription of ${email} to support: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}
