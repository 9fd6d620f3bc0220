import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import {
  MAX_PARCEL_SUBSCRIBERS,
  PARCEL_SUBSCRIBE_EMAIL_LIMIT,
  SUBSCRIPTION_LINK_TOKEN,
} from '~/schemas/public-forms';
import { normalizeTrackingNumber, type ParcelStatus } from '~/schemas/constants';
import { defineEmailKind, enqueueEmail } from '~/services/email-queue.server';
import { env } from '~/lib/env.server';
import { emailLayout, escapeHtml, publicUrl, sendMail } from '~/services/mailer.server';
import { deliverNotificationEmail, trackingUrl } from '~/services/notifications.server';
import { RateLimit } from '~/lib/rate-limit.server';
import { signToken, verifyToken } from '~/lib/cookies.server';
import { formatEventTime } from '~/utils/format';
import { getNotificationSettings } from './notification-settings.server';
import {
  fillTemplate,
  getNotificationTemplate,
  placeholderValues,
} from './notification-template.server';
import { eventTimeZone, Parcel, type LeanParcel } from './parcel.server';

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
 * id under the server's secret (see signToken): nothing stored grants confirming or unsubscribing.
 * Every document expires (a TTL index): unconfirmed after CONFIRM_HOURS, confirmed ones some
 * months after their last e-mail, ended and unsubscribed ones after a month.
 */
export const SUBSCRIPTION_STATUSES = ['pending', 'confirmed', 'ended', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const CONFIRM_HOURS = 48;
const HOUR = 60 * 60 * 1000;
const CONFIRMED_KEEP = 90 * 24 * HOUR;
const FINISHED_KEEP = 30 * 24 * HOUR;

const parcelSubscriptionSchema = new Schema(
  {
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel', required: true },
    trackingNumber: { type: String, required: true, uppercase: true, trim: true },
    email: { type: String, required: true, lowercase: true, trim: true },
    status: { type: String, enum: SUBSCRIPTION_STATUSES, default: 'pending' },
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
export const ParcelSubscription: Model<SubscriptionSchema> =
  (mongoose.models.ParcelSubscription as Model<SubscriptionSchema>) ??
  mongoose.model('ParcelSubscription', parcelSubscriptionSchema, 'parcel_subscriptions');

type LeanSubscription = SubscriptionSchema & { _id: mongoose.Types.ObjectId };

/** Per client address: shared by the tracking page's form and the API; refusals are shown. */
export const subscribeClientLimiter = new RateLimit(
  'parcel-subscribe',
  env.RATE_LIMIT_SUBSCRIBE_PER_HOUR,
  60 * 60 * 1000,
);

/** Per e-mail address, over every parcel: over it, nothing is sent, and nothing says so. */
export const subscribeEmailLimiter = new RateLimit(
  'parcel-subscribe-email',
  PARCEL_SUBSCRIBE_EMAIL_LIMIT.limit,
  PARCEL_SUBSCRIBE_EMAIL_LIMIT.windowMs,
);

/** What a visitor is told after asking, whatever became of the request. */
export const SUBSCRIBE_ANSWER =
  'If this address can get updates for this parcel, a link to confirm is on its way to it. Updates start once it is opened.';

const CONFIRM = 'parcel-subscription-confirm';
const UNSUBSCRIBE = 'parcel-subscription-unsubscribe';
type LinkPurpose = typeof CONFIRM | typeof UNSUBSCRIBE;

function linkToken(purpose: LinkPurpose, id: string): string {
  return `${id}.${signToken(purpose, id)}`;
}

/** The subscription id a link's token names, when the token is genuine. */
function idFromToken(purpose: LinkPurpose, token: string | null | undefined): string | null {
  const match = SUBSCRIPTION_LINK_TOKEN.exec(token ?? '');
  if (!match || !verifyToken(purpose, match[1]!, match[2]!)) return null;
  return match[1]!;
}

export function confirmUrl(id: string): string {
  return publicUrl(
    `/subscriptions/confirm?${new URLSearchParams({ token: linkToken(CONFIRM, id) })}`,
  );
}

/** The page with a button, for the link in the e-mail's body. */
export function unsubscribeUrl(id: string): string {
  return publicUrl(
    `/subscriptions/unsubscribe?${new URLSearchParams({ token: linkToken(UNSUBSCRIBE, id) })}`,
  );
}

/** For the `List-Unsubscribe` header: where a mail provider posts (RFC 8058). */
export function oneClickUnsubscribeUrl(id: string): string {
  return publicUrl(
    `/subscriptions/one-click?${new URLSearchParams({ token: linkToken(UNSUBSCRIBE, id) })}`,
  );
}

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

export type SubscribeOutcome = 'requested' | 'not-found' | 'delivered';

/**
 * A visitor asks for updates on a parcel. Unless the parcel is unknown or delivered, the answer
 * is 'requested' whatever happened: a confirmation e-mail was queued (a new or lapsed
 * subscription, or a pending one asked for again), or nothing was (the address already follows
 * the parcel, the parcel has all its subscribers, or the address asked too often).
 */
export async function requestParcelSubscription({
  trackingNumber,
  email,
}: {
  trackingNumber: string;
  email: string;
}): Promise<SubscribeOutcome> {
  const parcel = await Parcel.findOne(
    { trackingNumber: normalizeTrackingNumber(trackingNumber) },
    { trackingNumber: 1, status: 1 },
  ).lean<LeanParcel>();
  if (!parcel) return 'not-found';
  if (parcel.status === 'Delivered') return 'delivered';
  const address = email.trim().toLowerCase();
  if (!(await subscribeEmailLimiter.hit(address)).allowed) return 'requested';

  const parcelId = String(parcel._id);
  const now = new Date();
  // Requests that were never confirmed give their slots back now rather than when the TTL
  // monitor gets to them.
  await ParcelSubscription.deleteMany({ parcelId, status: 'pending', expiresAt: { $lte: now } });
  const pending = {
    status: 'pending',
    expiresAt: new Date(now.getTime() + CONFIRM_HOURS * HOUR),
  };
  const existing = await ParcelSubscription.findOne({
    parcelId,
    email: address,
  }).lean<LeanSubscription>();
  let id: string;
  if (existing?.status === 'confirmed') return 'requested';
  if (existing?.status === 'pending') {
    // Asked again before confirming: the same subscription, a fresh link and a new deadline.
    id = String(existing._id);
    await ParcelSubscription.updateOne({ _id: id, status: 'pending' }, { $set: pending });
  } else if (existing) {
    id = String(existing._id);
    if (!(await takeSlot(parcelId, pending, { id }))) return 'requested';
  } else {
    const newId = new mongoose.Types.ObjectId();
    id = String(newId);
    try {
      const insert = {
        _id: newId,
        parcelId,
        trackingNumber: parcel.trackingNumber,
        email: address,
      };
      if (!(await takeSlot(parcelId, pending, { insert }))) return 'requested';
    } catch (error) {
      // The same address asked for the same parcel twice at once: the other request queues it.
      if (isDuplicateKey(error)) return 'requested';
      throw error;
    }
  }
  await enqueueEmail({ kind: CONFIRM_EMAIL, subscriptionId: id });
  return 'requested';
}

export type SubscriptionLink = {
  id: string;
  trackingNumber: string;
  email: string;
  /** 'expired': a pending subscription past its confirmation deadline. */
  state: SubscriptionStatus | 'expired';
};

async function readLink(id: string): Promise<SubscriptionLink | null> {
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

/**
 * What a confirmation link leads to: null when the token is not genuine, `gone` when it is but
 * the subscription has since been removed (it expired).
 */
export async function readConfirmLink(
  token: string | null,
): Promise<SubscriptionLink | 'gone' | null> {
  const id = idFromToken(CONFIRM, token);
  if (!id) return null;
  return (await readLink(id)) ?? 'gone';
}

/** Confirms a pending subscription within its deadline; returns the subscription as it is now. */
export async function confirmParcelSubscription(
  token: string | null,
): Promise<SubscriptionLink | 'gone' | null> {
  const id = idFromToken(CONFIRM, token);
  if (!id) return null;
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
  return (await readLink(id)) ?? 'gone';
}

export async function readUnsubscribeLink(
  token: string | null,
): Promise<SubscriptionLink | 'gone' | null> {
  const id = idFromToken(UNSUBSCRIBE, token);
  if (!id) return null;
  return (await readLink(id)) ?? 'gone';
}

/**
 * Ends a subscription by its unsubscribe link: nothing more is sent to it, e-mails already
 * queued included. Repeating it changes nothing. Null when the token is not genuine.
 */
export async function unsubscribeParcelSubscription(
  token: string | null,
): Promise<SubscriptionLink | 'gone' | null> {
  const id = idFromToken(UNSUBSCRIBE, token);
  if (!id) return null;
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
  return (await readLink(id)) ?? 'gone';
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

const UPDATE_EMAIL = 'parcel-update';
const CONFIRM_EMAIL = 'parcel-subscription-confirm';

/**
 * After an event was added to a parcel: one e-mail per confirmed subscriber (once per event and
 * subscriber: the job's key). When the parcel is now delivered, its subscriptions end; the
 * e-mails just queued still go.
 */
export async function queueSubscriberEmails(parcelId: string, eventId: string): Promise<number> {
  const now = new Date();
  const subscribers = await ParcelSubscription.find(
    { parcelId, status: 'confirmed' },
    { _id: 1 },
  ).lean<Array<{ _id: unknown }>>();
  for (const sub of subscribers) {
    await enqueueEmail(
      { kind: UPDATE_EMAIL, subscriptionId: String(sub._id), eventId },
      { uniqueKey: `email:parcel-update:${String(sub._id)}:${eventId}` },
    );
  }
  const parcel = await Parcel.findById(parcelId, { status: 1 }).lean<LeanParcel>();
  if (parcel?.status === 'Delivered') {
    await ParcelSubscription.updateMany(
      { parcelId, status: { $in: ['pending', 'confirmed'] } },
      {
        $set: { status: 'ended', endedAt: now, expiresAt: new Date(now.getTime() + FINISHED_KEEP) },
        $unset: { slot: 1 },
      },
    );
  } else if (subscribers.length) {
    await ParcelSubscription.updateMany(
      { parcelId, status: 'confirmed' },
      { $set: { expiresAt: new Date(now.getTime() + CONFIRMED_KEEP) } },
    );
  }
  return subscribers.length;
}

/** The template the automatic e-mails use for this status (Status Update when there is none). */
async function templateFor(status: ParcelStatus) {
  const { rules } = await getNotificationSettings();
  const type = rules.find((rule) => rule.status === status)?.template ?? 'Status Update';
  const template = await getNotificationTemplate(type);
  // An empty Custom template cannot make an e-mail: the Status Update one stands in.
  if (!template.subject.trim() || !template.text.trim())
    return getNotificationTemplate('Status Update');
  return template;
}

/**
 * One attempt at a subscriber's e-mail about an event, made from the parcel as it is now with the
 * template of its status. Nothing is sent once the subscription is unsubscribed (or gone), nor
 * when the event has been deleted since.
 */
async function sendUpdateAttempt(subscriptionId: string, eventId: string): Promise<void> {
  const sub = await ParcelSubscription.findById(subscriptionId).lean<LeanSubscription>();
  if (!sub || (sub.status !== 'confirmed' && sub.status !== 'ended')) return;
  const parcel = await Parcel.findById(sub.parcelId, {
    trackingNumber: 1,
    status: 1,
    'recipient.name': 1,
    estimatedDelivery: 1,
    events: 1,
  }).lean<LeanParcel>();
  const event = parcel?.events?.find((e) => String(e._id) === eventId);
  if (!parcel || !event) return;
  const template = await templateFor((parcel.status ?? 'Pending') as ParcelStatus);
  const filled = fillTemplate(template, placeholderValues(parcel));
  const result = await deliverNotificationEmail({
    recipient: sub.email,
    title: filled.subject,
    message: filled.text,
    html: filled.html || null,
    trackingNumber: parcel.trackingNumber,
    event: {
      status: event.status,
      location: event.location,
      description: event.description,
      time: formatEventTime(event.timestamp, eventTimeZone(event)),
    },
    unsubscribe: {
      page: unsubscribeUrl(subscriptionId),
      oneClick: oneClickUnsubscribeUrl(subscriptionId),
    },
    messageKey: `parcel-update-${subscriptionId}-${eventId}`,
  });
  if (!result.ok) throw new Error(result.error);
}

defineEmailKind(UPDATE_EMAIL, {
  send: (payload) => sendUpdateAttempt(String(payload.subscriptionId), String(payload.eventId)),
});

/** The double opt-in e-mail: sent only while the subscription is still pending and in time. */
async function sendConfirmation(subscriptionId: string): Promise<void> {
  const sub = await ParcelSubscription.findById(subscriptionId).lean<LeanSubscription>();
  if (!sub || sub.status !== 'pending' || sub.expiresAt.getTime() <= Date.now()) return;
  const link = confirmUrl(subscriptionId);
  const subject = `Confirm e-mail updates for parcel ${sub.trackingNumber}`;
  const text = [
    `Someone, hopefully you, asked for e-mail updates about parcel ${sub.trackingNumber} at ${env.COMPANY_NAME}.`,
    '',
    `To get an e-mail at every new scan until delivery, confirm within ${CONFIRM_HOURS} hours:`,
    link,
    '',
    'If you did not ask for this, ignore this e-mail: nothing more will be sent.',
    '',
    `Track the parcel: ${trackingUrl(sub.trackingNumber)}`,
    '',
    '--',
    env.COMPANY_NAME,
    `${env.COMPANY_PHONE} · ${env.COMPANY_EMAIL}`,
  ].join('\n');
  const body = `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>
<p>Someone, hopefully you, asked for e-mail updates about parcel <strong>${escapeHtml(sub.trackingNumber)}</strong>.</p>
<p>To get an e-mail at every new scan until delivery, confirm within ${CONFIRM_HOURS} hours:</p>
<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1e40af;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">Confirm e-mail updates</a></p>
<p style="font-size:13px;color:#6b7280">Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>If you did not ask for this, ignore this e-mail: nothing more will be sent.</p>`;
  await sendMail({ to: sub.email, subject, text, html: emailLayout(subject, body) });
}

defineEmailKind(CONFIRM_EMAIL, {
  send: (payload) => sendConfirmation(String(payload.subscriptionId)),
});
