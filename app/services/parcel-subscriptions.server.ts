import { subscriptionConfirmEmail } from '~/emails/parcel-subscription.server';
import { subscriberEmail } from '~/emails/automatic.server';
import { signToken, verifyToken } from '~/lib/cookies.server';
import { env } from '~/lib/env.server';
import { RateLimit } from '~/lib/rate-limit.server';
import { publicUrl } from '~/lib/urls.server';
import { getNotificationSettings } from '~/models/notification-settings.server';
import { automaticEmailTemplate } from './notification-templates.server';
import {
  confirmSubscription,
  CONFIRM_HOURS,
  endParcelSubscriptions,
  endSubscriptionByUnsubscribe,
  getParcelSubscription,
  getSubscriptionLink,
  keepConfirmedSubscriptions,
  listConfirmedSubscriptions,
  openParcelSubscription,
  type StoredParcelSubscription,
  type SubscriptionLink,
} from '~/models/parcel-subscription.server';
import { parcelLanguage, type PlaceholderParcel } from '~/emails/templates.server';
import { recipientLanguage, translator } from '~/lib/i18n.server';
import { supportedLanguage, type Language } from '~/schemas/languages';
import { eventTimeZone } from '~/models/parcel.server';
import { getParcelForTemplate, getParcelWithEvents } from '~/models/parcel-reads.server';
import { normalizeTrackingNumber, type ParcelStatus } from '~/schemas/constants';
import { PARCEL_SUBSCRIBE_EMAIL_LIMIT, SUBSCRIPTION_LINK_TOKEN } from '~/schemas/public-forms';
import { longDateTime } from '~/utils/delivery-headline';
import { enqueueEmail, type EmailKind } from './email-queue.server';
import { sendMail } from './mailer.server';
import { deliverNotificationEmail } from './notifications.server';
import { eventStatusLabel } from '~/schemas/constants';

/**
 * Visitors following a parcel by e-mail (double opt-in; the records are in
 * models/parcel-subscription.server.ts): asking, the confirmation and unsubscribe links, and the
 * e-mails — the confirmation, and one per new tracking event to every confirmed follower.
 */

/** Per client address: shared by the tracking page's form and the API; refusals are shown. */
export const subscribeClientLimiter = new RateLimit(
  'parcel-subscribe',
  env.RATE_LIMIT_SUBSCRIBE_PER_HOUR,
  60 * 60 * 1000,
  { perAddress: true },
);

/** Per e-mail address, over every parcel: over it, nothing is sent, and nothing says so. */
export const subscribeEmailLimiter = new RateLimit(
  'parcel-subscribe-email',
  PARCEL_SUBSCRIBE_EMAIL_LIMIT.limit,
  PARCEL_SUBSCRIBE_EMAIL_LIMIT.windowMs,
);

/** What a visitor is told after asking, whatever became of the request. */
export const SUBSCRIBE_ANSWER =
  'Almost done: we have e-mailed you a link to confirm. Updates start as soon as you open it.';

export const UPDATE_EMAIL = 'parcel-update';
export const CONFIRM_EMAIL = 'parcel-subscription-confirm';

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
  language,
}: {
  trackingNumber: string;
  email: string;
  /** The language the visitor asked in: the confirmation and the updates are written in it. */
  language?: Language;
}): Promise<SubscribeOutcome> {
  const parcel = await getParcelForTemplate({
    trackingNumber: normalizeTrackingNumber(trackingNumber),
  });
  if (!parcel) return 'not-found';
  if (parcel.status === 'Delivered') return 'delivered';
  const address = email.trim().toLowerCase();
  if (!(await subscribeEmailLimiter.hit(address)).allowed) return 'requested';
  const id = await openParcelSubscription({
    parcelId: String(parcel._id),
    trackingNumber: parcel.trackingNumber,
    email: address,
    language,
  });
  if (id) await enqueueEmail({ kind: CONFIRM_EMAIL, subscriptionId: id });
  return 'requested';
}

/**
 * What a link in a subscription e-mail leads to, after `change` (if any) was applied to it: null
 * when the token is not genuine, `gone` when it is but the subscription has since been removed
 * (it expired).
 */
async function followLink(
  purpose: LinkPurpose,
  token: string | null,
  change?: (id: string) => Promise<void>,
): Promise<SubscriptionLink | 'gone' | null> {
  const id = idFromToken(purpose, token);
  if (!id) return null;
  await change?.(id);
  return (await getSubscriptionLink(id)) ?? 'gone';
}

export function readConfirmLink(token: string | null) {
  return followLink(CONFIRM, token);
}

/** Confirms a pending subscription within its deadline; returns the subscription as it is now. */
export function confirmParcelSubscription(token: string | null) {
  return followLink(CONFIRM, token, confirmSubscription);
}

export function readUnsubscribeLink(token: string | null) {
  return followLink(UNSUBSCRIBE, token);
}

/**
 * Ends a subscription by its unsubscribe link: nothing more is sent to it, e-mails already
 * queued included. Repeating it changes nothing.
 */
export function unsubscribeParcelSubscription(token: string | null) {
  return followLink(UNSUBSCRIBE, token, endSubscriptionByUnsubscribe);
}

/**
 * After an event was added to a parcel: one e-mail per confirmed subscriber (once per event and
 * subscriber: the job's key). When the parcel is now delivered, its subscriptions end; the
 * e-mails just queued still go.
 */
export async function queueSubscriberEmails(
  parcelId: string,
  eventId: string,
  parcelStatus: string | null,
): Promise<number> {
  const subscribers = await listConfirmedSubscriptions(parcelId);
  for (const subscriptionId of subscribers) {
    await enqueueEmail(
      { kind: UPDATE_EMAIL, subscriptionId, eventId },
      { uniqueKey: `email:parcel-update:${subscriptionId}:${eventId}` },
    );
  }
  if (parcelStatus === 'Delivered') await endParcelSubscriptions(parcelId);
  else if (subscribers.length) await keepConfirmedSubscriptions(parcelId);
  return subscribers.length;
}

/**
 * The template the automatic e-mails use for this status (Status Update when there is none), in
 * `language`.
 */
async function templateFor(status: ParcelStatus, language: Language) {
  const { rules } = await getNotificationSettings();
  return automaticEmailTemplate(
    rules.find((rule) => rule.status === status)?.template ?? 'Status Update',
    language,
  );
}

/** The language a subscriber's e-mails are written in: the one they asked in, else the parcel's. */
function subscriberLanguage(sub: StoredParcelSubscription, parcel: PlaceholderParcel): Language {
  return supportedLanguage(sub.language) ?? parcelLanguage(parcel);
}

/**
 * One attempt at a subscriber's e-mail about an event, made from the parcel as it is now with the
 * template of its status. Nothing is sent once the subscription is unsubscribed (or gone), nor
 * when the event has been deleted since.
 */
async function sendUpdateAttempt(subscriptionId: string, eventId: string): Promise<void> {
  const sub = await getParcelSubscription(subscriptionId);
  if (!sub || (sub.status !== 'confirmed' && sub.status !== 'ended')) return;
  const parcel = await getParcelWithEvents(sub.parcelId);
  const event = parcel?.events?.find((e) => String(e._id) === eventId);
  if (!parcel || !event) return;
  const language = subscriberLanguage(sub, parcel);
  const template = await templateFor((parcel.status ?? 'Pending') as ParcelStatus, language);
  const filled = subscriberEmail(template, parcel, language);
  const status = eventStatusLabel(event);
  const result = await deliverNotificationEmail(
    {
      recipient: sub.email,
      language,
      title: filled.subject,
      message: filled.text,
      html: filled.html || null,
      trackingNumber: parcel.trackingNumber,
      event: {
        status: translator(language)(`status.${status}`, { defaultValue: status }),
        location: event.location,
        description: event.description,
        time: longDateTime(event.timestamp, eventTimeZone(event), language),
      },
      unsubscribe: {
        page: unsubscribeUrl(subscriptionId),
        oneClick: oneClickUnsubscribeUrl(subscriptionId),
      },
      messageKey: `parcel-update-${subscriptionId}-${eventId}`,
    },
    { parcel },
  );
  if (!result.ok) throw new Error(result.error);
}

/** The `parcel-update` kind of `email.send` job (registered in job-kinds.server.ts). */
export const parcelUpdateEmailKind: EmailKind = {
  send: (payload) => sendUpdateAttempt(String(payload.subscriptionId), String(payload.eventId)),
};

/** The double opt-in e-mail: sent only while the subscription is still pending and in time. */
async function sendConfirmation(subscriptionId: string): Promise<void> {
  const sub = await getParcelSubscription(subscriptionId);
  if (!sub || sub.status !== 'pending' || sub.expiresAt.getTime() <= Date.now()) return;
  await sendMail(
    subscriptionConfirmEmail({
      to: sub.email,
      trackingNumber: sub.trackingNumber,
      link: confirmUrl(subscriptionId),
      hours: CONFIRM_HOURS,
      language: recipientLanguage(sub.language),
    }),
  );
}

/** The `parcel-subscription-confirm` kind of `email.send` job (registered in job-kinds.server.ts). */
export const subscriptionConfirmEmailKind: EmailKind = {
  send: (payload) => sendConfirmation(String(payload.subscriptionId)),
};
