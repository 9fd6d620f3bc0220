import type { Language } from '~/schemas/languages';
import mongoose from 'mongoose';
import { notificationEmail, type RenderableNotification } from '~/emails/notification.server';
import {
  statusEmail,
  templateEmail,
  type EmailContent,
  type WhatHappened,
} from '~/emails/automatic.server';
import {
  fillTemplate,
  parcelLanguage,
  placeholderValues,
  type PlaceholderParcel,
} from '~/emails/templates.server';
import type { NotificationTemplate } from '~/schemas/notification-template';
import { listProofs } from '~/models/proof-of-delivery.server';
import { getParcel, tenancyOf } from '~/models/parcel-reads.server';
import { findParcelByTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { recordTestMessage } from '~/models/test-message.server';
import { stopAddress } from './address-format.server';
import { proofLink } from './public-proof.server';
import { getEvent } from '~/models/tracking-event.server';
import { getJob, jobExists, requeueJob, type JobRecord } from '~/models/job.server';
import {
  claimFailedNotification,
  deleteFailedNotification,
  getNotification,
  insertNotification,
  listPendingNotifications,
  markNotificationFailed,
  markNotificationSent,
  recordNotificationError,
  removeNotification,
  setNotificationJob,
  startNotificationAttempt,
  type LeanNotification,
  type SerializedNotification,
} from '~/models/notification.server';
import { automaticRuleFor } from '~/models/notification-settings.server';
import { getParcelForTemplate } from '~/models/parcel-reads.server';
import type { LeanParcel } from '~/models/parcel.server';
import { normalizeTrackingNumber, type ParcelStatus } from '~/schemas/constants';
import type { NotificationCreateInput, NotificationType } from '~/schemas/notification';
import { env } from '~/lib/env.server';
import { auditedDelete, auditRecord, type Actor } from './audit.server';
import { enqueueEmail, mailRetryDelays, type EmailKind } from './email-queue.server';
import { enqueueText, smsRetryDelays, type TextJobPayload } from './sms-queue.server';
import { deliverMail, messageIdFor, type DeliveryResult } from './mailer.server';
import { deliveryDataFor } from './public-tracking.server';
import { emitWebhookEvent } from './webhooks.server';
import { automaticEmailTemplate } from './notification-templates.server';

/**
 * Customer notifications: staff send them (the dashboard and the API), status changes send them
 * (automatic e-mails), and the queue delivers them. Each operation here does the whole change:
 * the notification's record, its `email.send` job, the audit entry and the webhooks.
 */

/** Thrown when a notification names a tracking number no parcel has (API: 400 on the field). */
export class UnknownParcelError extends Error {
  constructor() {
    super('No parcel has this tracking number');
  }
}

export const NOTIFICATION_EMAIL = 'notification';
const jobKey = (id: string) => `email:notification:${id}`;

/**
 * Puts the notification's e-mail on the queue once: under `key` (by default the notification's
 * id) there is one job, whoever queues it first. Returns the notification linked to its job;
 * null when that job delivers another notification (one queued the same e-mail first), so this
 * one is not to be sent.
 */
export async function enqueueNotificationSend(
  id: string,
  key = jobKey(id),
  text?: Omit<TextJobPayload, 'notificationId'> & { runAt?: Date },
): Promise<SerializedNotification | null> {
  const job = text
    ? await enqueueText(
        { notificationId: id, timeZone: text.timeZone, ...(text.reply ? { reply: true } : {}) },
        { uniqueKey: key, runAt: text.runAt },
      )
    : await enqueueEmail({ kind: NOTIFICATION_EMAIL, notificationId: id }, { uniqueKey: key });
  if (String(job.payload.notificationId) !== id) return null;
  return setNotificationJob(id, job.id);
}

/** A text's job, queued again after a restart or a retry: in the company's zone if none kept. */
const textAgain = (channel: string) =>
  channel === 'sms' ? { timeZone: env.COMPANY_TIMEZONE } : undefined;

/** The audit entry of a notification made or changed, which staff know by its tracking number. */
function auditNotification(
  actor: Actor | undefined,
  action: 'create' | 'update',
  notification: SerializedNotification,
  before?: SerializedNotification | null,
) {
  return auditRecord(actor, action, 'notification', {
    label: notification.trackingNumber,
    before,
    after: notification,
  });
}

/**
 * Stores the notification as pending and queues its e-mail; a worker sends it. The tracking
 * number must be a parcel's (UnknownParcelError otherwise); the notification is linked to it.
 * Placeholders ({{trackingNumber}}, {{status}}, …) in the subject, message and HTML body are
 * filled in here, on the server, for that parcel.
 */
export async function createNotification(
  input: NotificationCreateInput & { parcelId?: string; html?: string },
  actor?: Actor,
): Promise<SerializedNotification> {
  const parcel = await getParcelForTemplate(
    input.parcelId
      ? { id: input.parcelId }
      : { trackingNumber: normalizeTrackingNumber(input.trackingNumber) },
  );
  if (!parcel) throw new UnknownParcelError();
  const filled = fillTemplate(
    { subject: input.title, text: input.message, html: input.html },
    placeholderValues(parcel),
  );
  const notification = await insertNotification({
    type: input.type,
    language: parcelLanguage(parcel),
    recipient: input.recipient,
    title: filled.subject,
    message: filled.text,
    html: filled.html,
    trackingNumber: parcel.trackingNumber,
    parcelId: String(parcel._id),
  });
  await enqueueNotificationSend(notification.id);
  await auditNotification(actor, 'create', notification);
  return notification;
}

/**
 * Puts a failed notification back on the queue and returns it, pending. Returns null for an
 * unknown id; throws NotificationStateError unless the notification is failed, so two retries at
 * once queue one send.
 */
export async function retryNotification(
  id: string,
  actor?: Actor,
): Promise<SerializedNotification | null> {
  const before = actor ? await getNotification(id) : null;
  const claimed = await claimFailedNotification(id);
  if (!claimed) return null;
  const { notification } = claimed;
  const sms = notification.channel === 'sms';
  const requeued = claimed.jobId
    ? await requeueJob(claimed.jobId, sms ? smsRetryDelays() : mailRetryDelays())
    : false;
  // The finished job is no longer kept (or never was): a new one takes its key.
  if (!requeued) await enqueueNotificationSend(id, jobKey(id), textAgain(notification.channel));
  await auditNotification(actor, 'update', notification, before);
  return notification;
}

/**
 * Deletes a failed notification and returns it as it was. Null for an unknown id; throws
 * NotificationStateError unless it is failed.
 */
export async function deleteNotification(
  id: string,
  actor?: Actor,
): Promise<SerializedNotification | null> {
  return auditedDelete(actor, 'notification', (notification) => notification.trackingNumber, {
    read: () => getNotification(id),
    remove: () => deleteFailedNotification(id),
  });
}

/** A status change an automatic message is about: the parcel, the event and the status it set. */
export type StatusChangeRef = { parcelId: string; eventId: string; status: ParcelStatus };

/**
 * An automatic e-mail for a status change: when the event `eventId` set the parcel's status to
 * one that the rules e-mail, the recipient is e-mailed with that rule's template and what
 * happened (statusEmail). Once per event: the job's unique key is the event, so editing the
 * event (or saving it twice) never queues a second e-mail. Returns the notification, or null
 * when nothing was queued.
 */
export async function queueStatusEmail({
  parcelId,
  eventId,
  status,
  parcel,
}: StatusChangeRef & {
  /** The parcel as the event's write left it, when the write returned it: not read again. */
  parcel?: LeanParcel;
}): Promise<SerializedNotification | null> {
  const rule = await automaticRuleFor(status);
  if (!rule) return null;
  return queueAutomaticEmail({
    parcelId,
    parcel,
    template: rule.template,
    key: `email:status:${eventId}`,
    eventId,
    compose: async (parcel, template) =>
      statusEmail(template, parcel, await whatHappened(status, parcelId, eventId)),
  });
}

/** What a status e-mail reports of its event: a failed attempt, a delivery, or nothing more. */
export async function whatHappened(
  status: ParcelStatus,
  parcelId: string,
  eventId: string,
): Promise<WhatHappened | null> {
  if (status !== 'Failed' && status !== 'Delivered') return null;
  const [event, parcel] = await Promise.all([getEvent(eventId), getParcel(parcelId)]);
  if (!event?.timestamp || !parcel) return null;
  if (status === 'Failed') return { kind: 'failed', ...event, timestamp: event.timestamp };
  // A proof's Delivered event is stamped with the proof's time.
  const proof = (await listProofs(parcelId)).find(
    (p) => Date.parse(p.deliveredAt) === Date.parse(event.timestamp!),
  );
  return {
    kind: 'delivered',
    timestamp: event.timestamp,
    timeZone: event.timeZone,
    receivedBy: proof?.receivedBy,
    address: stopAddress(parcel, proof?.destination ?? 0) || undefined,
    note: proof?.note || undefined,
    handedTo: proof && !proof.note ? proof.receivedBy : undefined,
    proofUrl:
      proof && (proof.photos.length || proof.signature)
        ? proofLink(parcel.trackingNumber)
        : undefined,
  };
}

/**
 * An automatic e-mail to the parcel's recipient, made by `compose` from the parcel and the
 * template of `template` (the template filled in, by default), queued once under `key`: a second
 * call with the key, at once or later, queues nothing. Returns the notification, or null when
 * nothing was queued (no parcel, no address, or the key was used already).
 */
export async function queueAutomaticEmail({
  parcelId,
  parcel: known,
  template: type,
  key,
  eventId,
  language: asked,
  compose = (parcel, template) => templateEmail(template, parcel),
}: {
  parcelId: string;
  /** The language to write it in, when not the recipient's (the one a form was filled in). */
  language?: Language;
  /** The parcel, when the caller has it as it is now (else it is read). */
  parcel?: LeanParcel;
  template: NotificationType;
  key: string;
  eventId?: string;
  compose?: (
    parcel: PlaceholderParcel,
    template: Pick<NotificationTemplate, 'subject' | 'text' | 'html'>,
    language: Language,
  ) => EmailContent | Promise<EmailContent>;
}): Promise<SerializedNotification | null> {
  const parcel = known ?? (await getParcelForTemplate({ id: parcelId }));
  const recipient = parcel?.recipient?.email?.trim().toLowerCase();
  if (!parcel || !recipient) return null;
  if (await jobExists(key)) return null;
  // In the recipient's language, whoever made the change that sends it.
  const language = asked ?? parcelLanguage(parcel);
  const filled = await compose(parcel, await automaticEmailTemplate(type, language), language);
  const id = String(new mongoose.Types.ObjectId());
  await insertNotification({
    id,
    type,
    language,
    recipient,
    title: filled.subject,
    message: filled.text,
    html: filled.html,
    trackingNumber: parcel.trackingNumber,
    parcelId: String(parcel._id),
    automatic: true,
    jobKey: key,
    ...(eventId ? { eventId } : {}),
  });
  const queued = await enqueueNotificationSend(id, key);
  // Another request queued this e-mail first.
  if (!queued) await removeNotification(id);
  return queued;
}

/**
 * At a start: a pending notification whose job is missing (a process stopped between storing it
 * and queueing it) is queued, and one whose job already failed for good (the process stopped
 * before recording that) becomes failed. Jobs cut off mid-send are taken again by the queue
 * itself when their lease ends. Another process may be queueing the notification at this very
 * moment: it is queued under the key its request stored, so both reach the same one job; a
 * notification whose key another one's job holds lost that race and is removed, as its request
 * removes it.
 */
export async function resumeNotificationSends(): Promise<{ queued: number; failed: number }> {
  let queued = 0;
  let failed = 0;
  for (const { id, jobId, jobKey: key, channel } of await listPendingNotifications()) {
    const job = jobId ? await getJob(jobId) : null;
    if (!job) {
      if (await enqueueNotificationSend(id, key ?? jobKey(id), textAgain(channel))) queued += 1;
      else await removeNotification(id);
    } else if (job.status === 'failed') {
      if (await markNotificationFailed(id, job.lastError ?? 'Not sent')) failed += 1;
    }
  }
  return { queued, failed };
}

/**
 * Sends an e-mail about a parcel (a notification, or a subscriber's update) and never throws:
 * the outcome is returned.
 */
export async function deliverNotificationEmail(
  notification: RenderableNotification,
  options: { smtpUrl?: string; timeoutMs?: number; parcel?: LeanParcel } = {},
): Promise<DeliveryResult> {
  // The parcel as it is now, read once (`parcel`, when the caller has just read it): for mail
  // programs, and whose it is. The e-mail goes without the former if it cannot be read.
  const parcel =
    options.parcel ??
    (await findParcelByTrackingNumber(notification.trackingNumber).catch(() => null));
  const delivery = parcel ? await deliveryDataFor(notification.trackingNumber, parcel) : null;
  // A test parcel's recipient is no real person: the e-mail goes to the account's test log.
  const tenancy = tenancyOf(parcel);
  if (tenancy && !tenancy.livemode) {
    const content = notificationEmail({ ...notification, delivery });
    const logged = await recordTestMessage({
      accountId: tenancy.accountId,
      trackingNumber: notification.trackingNumber,
      to: notification.recipient,
      subject: content.subject,
      text: content.text,
    });
    return { ok: true, messageId: `test-${logged.id}` };
  }
  return deliverMail(
    {
      to: notification.recipient,
      ...notificationEmail({ ...notification, delivery }),
      ...(notification.messageKey
        ? { messageId: messageIdFor(notification.messageKey) }
        : notification.id
          ? { messageId: messageIdFor(`notification-${notification.id}`) }
          : {}),
      ...(notification.unsubscribe
        ? {
            headers: {
              'List-Unsubscribe': `<${notification.unsubscribe.oneClick}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
          }
        : {}),
    },
    { smtpUrl: options.smtpUrl, timeoutMs: options.timeoutMs ?? env.SMTP_TIMEOUT_MS },
  );
}

/**
 * One attempt at a notification's e-mail, run by the queue's worker. Only a pending notification
 * is sent: one already sent (or deleted) is left alone, so a job taken again after a crash never
 * sends it twice. A refused attempt is recorded and thrown, for the queue to retry.
 */
export async function sendNotificationAttempt(
  id: string,
  job: JobRecord,
  deliver: (doc: LeanNotification & { id: string }) => Promise<DeliveryResult> = (doc) =>
    deliverNotificationEmail(doc),
  retryDelays = mailRetryDelays(),
): Promise<void> {
  const doc = await startNotificationAttempt(id, job.id);
  if (!doc) return;
  const result = await deliver({ ...doc, id });
  if (result.ok) {
    const sent = await markNotificationSent(id, result.messageId);
    if (sent) await emitWebhookEvent('notification.sent', { notification: sent });
    return;
  }
  const delays = job.lastAttempt ? [] : retryDelays;
  const delay = delays[job.attempts - 1];
  await recordNotificationError(
    id,
    result.error,
    delay !== undefined ? new Date(Date.now() + delay * 1000) : undefined,
  );
  throw new Error(result.error);
}

/** The `notification` kind of `email.send` job (registered in job-kinds.server.ts). */
export const notificationEmailKind: EmailKind = {
  send: (payload, job) => sendNotificationAttempt(String(payload.notificationId), job),
  failed: async (payload, error) => {
    const failed = await markNotificationFailed(String(payload.notificationId), error);
    if (failed) await emitWebhookEvent('notification.failed', { notification: failed });
  },
};
