import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import {
  normalizeTrackingNumber,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  type ParcelStatus,
} from '~/schemas/constants';
import type {
  NotificationCreateInput,
  NotificationStatus,
  NotificationType,
} from '~/schemas/notification';
import { defineEmailKind, enqueueEmail, mailRetryDelays } from '~/services/email-queue.server';
import { emitWebhookEvent } from '~/services/webhooks.server';
import { deliverNotificationEmail } from '~/services/notifications.server';
import { getJob, Job, requeueJob, type JobRecord } from './job.server';
import { automaticRuleFor } from './notification-settings.server';
import {
  fillTemplate,
  getNotificationTemplate,
  placeholderValues,
} from './notification-template.server';
import { Parcel, type LeanParcel } from './parcel.server';

const emailResultSchema = new Schema(
  {
    messageId: { type: String },
    error: { type: String },
    sentAt: { type: Date },
    attempts: { type: Number, default: 0 },
    /** When a refused send will be tried again (while the notification is pending). */
    nextAttemptAt: { type: Date },
  },
  { _id: false },
);

const notificationSchema = new Schema(
  {
    type: { type: String, enum: NOTIFICATION_TYPES, required: true },
    recipient: { type: String, required: true, trim: true, lowercase: true },
    title: { type: String, required: true, trim: true },
    message: { type: String, required: true },
    /** The HTML body from the template, filled in; without it the e-mail's HTML is the message. */
    html: { type: String },
    trackingNumber: { type: String, required: true, trim: true, uppercase: true },
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel' },
    status: { type: String, enum: NOTIFICATION_STATUSES, default: 'pending' },
    emailResult: { type: emailResultSchema, default: () => ({ attempts: 0 }) },
    /** The `email.send` job that delivers it. */
    jobId: { type: Schema.Types.ObjectId },
    /** Queued by a status change (automatic e-mails), not by a staff member. */
    automatic: { type: Boolean, default: false },
    /** The tracking event whose status change queued it (automatic ones). */
    eventId: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);

notificationSchema.index({ createdAt: -1 });
notificationSchema.index({ status: 1, createdAt: -1 });
notificationSchema.index({ trackingNumber: 1, createdAt: -1 });
notificationSchema.index({ parcelId: 1, createdAt: -1 });

export const Notification: Model<InferSchemaType<typeof notificationSchema>> =
  (mongoose.models.Notification as Model<InferSchemaType<typeof notificationSchema>>) ??
  mongoose.model('Notification', notificationSchema);

type LeanNotification = {
  _id: unknown;
  type: string;
  recipient: string;
  title: string;
  message: string;
  html?: string | null;
  trackingNumber: string;
  parcelId?: unknown;
  status?: string | null;
  jobId?: unknown;
  automatic?: boolean | null;
  eventId?: unknown;
  emailResult?: {
    messageId?: string | null;
    error?: string | null;
    sentAt?: Date | null;
    attempts?: number | null;
    nextAttemptAt?: Date | null;
  } | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The JSON form used by the API and the dashboard. `subject` mirrors `title` for clients that read it. */
export function serializeNotification(n: LeanNotification) {
  const id = String(n._id);
  const status = (n.status ?? 'pending') as NotificationStatus;
  return {
    id,
    _id: id,
    type: n.type as NotificationType,
    recipient: n.recipient,
    title: n.title,
    subject: n.title,
    message: n.message,
    trackingNumber: n.trackingNumber,
    parcelId: n.parcelId ? String(n.parcelId) : null,
    status,
    automatic: Boolean(n.automatic),
    eventId: n.eventId ? String(n.eventId) : null,
    emailResult: {
      messageId: n.emailResult?.messageId ?? null,
      error: n.emailResult?.error ?? null,
      sentAt: iso(n.emailResult?.sentAt),
      attempts: n.emailResult?.attempts ?? 0,
      nextAttemptAt: status === 'pending' ? iso(n.emailResult?.nextAttemptAt) : null,
    },
    createdAt: iso(n.createdAt),
    updatedAt: iso(n.updatedAt),
  };
}
export type SerializedNotification = ReturnType<typeof serializeNotification>;

/** Thrown when an action is not allowed in the notification's current status (API: 409). */
export class NotificationStateError extends Error {
  constructor(
    readonly action: 'retry' | 'delete',
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when a notification names a tracking number no parcel has (API: 400 on the field). */
export class UnknownParcelError extends Error {
  constructor() {
    super('No parcel has this tracking number');
  }
}

export async function listNotifications({
  page = 1,
  limit = 20,
  type,
  status,
  trackingNumber,
  automatic,
}: {
  page?: number;
  limit?: number;
  type?: NotificationType;
  status?: NotificationStatus;
  trackingNumber?: string;
  automatic?: boolean;
}) {
  const filter: Record<string, unknown> = {};
  if (type) filter.type = type;
  if (status) filter.status = status;
  if (trackingNumber) filter.trackingNumber = normalizeTrackingNumber(trackingNumber);
  // Notifications stored before automatic ones existed have no flag: they were manual.
  if (automatic !== undefined) filter.automatic = automatic ? true : { $ne: true };
  const [totalItems, docs] = await Promise.all([
    Notification.countDocuments(filter),
    Notification.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<LeanNotification[]>(),
  ]);
  return {
    notifications: docs.map(serializeNotification),
    pagination: { totalItems, currentPage: page, totalPages: Math.ceil(totalItems / limit), limit },
  };
}

export async function getNotification(id: string): Promise<SerializedNotification | null> {
  if (!isObjectId(id)) return null;
  const doc = await Notification.findById(id).lean<LeanNotification>();
  return doc ? serializeNotification(doc) : null;
}

const NOTIFICATION_EMAIL = 'notification';
const jobKey = (id: string) => `email:notification:${id}`;

/** Puts the notification's e-mail on the queue (once: the job's key is the notification's id). */
async function enqueueNotificationEmail(id: string): Promise<void> {
  const job = await enqueueEmail(
    { kind: NOTIFICATION_EMAIL, notificationId: id },
    { uniqueKey: jobKey(id) },
  );
  await Notification.updateOne({ _id: id }, { $set: { jobId: job.id } });
}

/**
 * Stores the notification as pending and queues its e-mail; a worker sends it. The tracking
 * number must be a parcel's (UnknownParcelError otherwise); the notification is linked to it.
 * Placeholders ({{trackingNumber}}, {{status}}, …) in the subject, message and HTML body are
 * filled in here, on the server, for that parcel.
 */
export async function createNotification(
  input: NotificationCreateInput & { parcelId?: string; html?: string },
): Promise<SerializedNotification> {
  const trackingNumber = normalizeTrackingNumber(input.trackingNumber);
  const parcel = await Parcel.findOne(
    input.parcelId ? { _id: input.parcelId } : { trackingNumber },
    PARCEL_PLACEHOLDER_FIELDS,
  ).lean<LeanParcel>();
  if (!parcel) throw new UnknownParcelError();
  const filled = fillTemplate(
    { subject: input.title, text: input.message, html: input.html },
    placeholderValues(parcel),
  );
  const created = await Notification.create({
    type: input.type,
    recipient: input.recipient,
    title: filled.subject,
    message: filled.text,
    ...(filled.html ? { html: filled.html } : {}),
    trackingNumber: parcel.trackingNumber,
    parcelId: String(parcel._id),
    status: 'pending',
    emailResult: { attempts: 0 },
  });
  const id = String(created._id);
  await enqueueNotificationEmail(id);
  return serializeNotification({ ...(created.toObject() as LeanNotification) });
}

const PARCEL_PLACEHOLDER_FIELDS = {
  trackingNumber: 1,
  status: 1,
  'recipient.name': 1,
  estimatedDelivery: 1,
};

/**
 * One attempt at a notification's e-mail, run by the queue's worker. Only a pending notification
 * is sent: one already sent (or deleted) is left alone, so a job taken again after a crash never
 * sends it twice. A refused attempt is recorded and thrown, for the queue to retry.
 */
async function sendNotificationAttempt(id: string, job: JobRecord): Promise<void> {
  const doc = await Notification.findOneAndUpdate(
    { _id: id, status: 'pending' },
    { $inc: { 'emailResult.attempts': 1 }, $unset: { 'emailResult.nextAttemptAt': 1 } },
    { returnDocument: 'after' },
  ).lean<LeanNotification>();
  if (!doc) return;
  const result = await deliverNotificationEmail({ ...doc, id });
  if (result.ok) {
    const sent = await Notification.findOneAndUpdate(
      { _id: id },
      {
        $set: {
          status: 'sent',
          'emailResult.messageId': result.messageId,
          'emailResult.sentAt': new Date(),
        },
        $unset: { 'emailResult.error': 1, 'emailResult.nextAttemptAt': 1 },
      },
      { returnDocument: 'after' },
    ).lean<LeanNotification>();
    if (sent) {
      await emitWebhookEvent('notification.sent', { notification: serializeNotification(sent) });
    }
    return;
  }
  const delays = job.lastAttempt ? [] : mailRetryDelays();
  const delay = delays[job.attempts - 1];
  await Notification.updateOne(
    { _id: id, status: 'pending' },
    {
      $set: {
        'emailResult.error': result.error,
        ...(delay !== undefined
          ? { 'emailResult.nextAttemptAt': new Date(Date.now() + delay * 1000) }
          : {}),
      },
    },
  );
  throw new Error(result.error);
}

defineEmailKind(NOTIFICATION_EMAIL, {
  send: (payload, job) => sendNotificationAttempt(String(payload.notificationId), job),
  failed: async (payload, error) => {
    const failed = await Notification.findOneAndUpdate(
      { _id: String(payload.notificationId), status: 'pending' },
      { $set: { status: 'failed', 'emailResult.error': error } },
      { returnDocument: 'after' },
    ).lean<LeanNotification>();
    if (failed) {
      await emitWebhookEvent('notification.failed', {
        notification: serializeNotification(failed),
      });
    }
  },
});

/**
 * An automatic e-mail for a status change: when the event `eventId` set the parcel's status to
 * one that the rules e-mail, the recipient is e-mailed with that rule's template. Once per
 * event: the job's unique key is the event, so editing the event (or saving it twice) never
 * queues a second e-mail. Returns the notification, or null when nothing was queued.
 */
export async function queueStatusEmail({
  parcelId,
  eventId,
  status,
}: {
  parcelId: string;
  eventId: string;
  status: ParcelStatus;
}): Promise<SerializedNotification | null> {
  const rule = await automaticRuleFor(status);
  if (!rule) return null;
  const parcel = await Parcel.findById(parcelId, {
    ...PARCEL_PLACEHOLDER_FIELDS,
    'recipient.email': 1,
  }).lean<LeanParcel>();
  const recipient = parcel?.recipient?.email?.trim().toLowerCase();
  if (!parcel || !recipient) return null;
  const key = `email:status:${eventId}`;
  if (await Job.exists({ uniqueKey: key })) return null;
  let template = await getNotificationTemplate(rule.template);
  // An empty Custom template cannot make an e-mail: the Status Update one stands in.
  if (!template.subject.trim() || !template.text.trim())
    template = await getNotificationTemplate('Status Update');
  const filled = fillTemplate(template, placeholderValues(parcel));
  const id = new mongoose.Types.ObjectId();
  await Notification.create({
    _id: id,
    type: rule.template,
    recipient,
    title: filled.subject,
    message: filled.text,
    ...(filled.html ? { html: filled.html } : {}),
    trackingNumber: parcel.trackingNumber,
    parcelId: String(parcel._id),
    status: 'pending',
    automatic: true,
    eventId,
    emailResult: { attempts: 0 },
  });
  const job = await enqueueEmail(
    { kind: NOTIFICATION_EMAIL, notificationId: String(id) },
    { uniqueKey: key },
  );
  if (String(job.payload.notificationId) !== String(id)) {
    // Another request queued this event's e-mail first.
    await Notification.deleteOne({ _id: id });
    return null;
  }
  const stored = await Notification.findByIdAndUpdate(
    id,
    { $set: { jobId: job.id } },
    { returnDocument: 'after' },
  ).lean<LeanNotification>();
  return stored ? serializeNotification(stored) : null;
}

/** The e-mails sent about a parcel, newest first, for its tracking timeline. */
export async function listSentEmailsForParcel(parcelId: string) {
  if (!isObjectId(parcelId)) return [];
  const docs = await Notification.find(
    { parcelId, status: 'sent' },
    { recipient: 1, title: 1, type: 1, automatic: 1, 'emailResult.sentAt': 1 },
  )
    .sort({ 'emailResult.sentAt': -1 })
    .limit(100)
    .lean<LeanNotification[]>();
  return docs.map((n) => ({
    id: String(n._id),
    recipient: n.recipient,
    title: n.title,
    type: n.type,
    automatic: Boolean(n.automatic),
    sentAt: iso(n.emailResult?.sentAt),
  }));
}

/**
 * Puts a failed notification back on the queue and returns it, pending. Returns null for an
 * unknown id; throws NotificationStateError unless the notification is failed. Claiming the
 * record (failed → pending) is atomic, so two retries at once queue one send.
 */
export async function retryNotification(id: string): Promise<SerializedNotification | null> {
  if (!isObjectId(id)) return null;
  const claimed = await Notification.findOneAndUpdate(
    { _id: id, status: 'failed' },
    { $set: { status: 'pending' } },
    { returnDocument: 'after' },
  ).lean<LeanNotification>();
  if (!claimed) {
    const exists = await Notification.exists({ _id: id });
    if (!exists) return null;
    throw new NotificationStateError('retry', 'Only failed notifications can be retried.');
  }
  const requeued = claimed.jobId
    ? await requeueJob(String(claimed.jobId), mailRetryDelays())
    : false;
  // The finished job is no longer kept (or never was): a new one takes its key.
  if (!requeued) await enqueueNotificationEmail(id);
  return serializeNotification(claimed);
}

/**
 * After a restart: a pending notification whose job is missing (the process stopped between
 * storing it and queueing it) is queued, and one whose job already failed for good (the process
 * stopped before recording that) becomes failed. Jobs cut off mid-send are taken again by the
 * queue itself when their lease ends.
 */
export async function resumeNotificationSends(): Promise<{ queued: number; failed: number }> {
  let queued = 0;
  let failed = 0;
  const pending = await Notification.find({ status: 'pending' }, { _id: 1, jobId: 1 }).lean<
    Array<{ _id: unknown; jobId?: unknown }>
  >();
  for (const n of pending) {
    const id = String(n._id);
    const job = n.jobId ? await getJob(String(n.jobId)) : null;
    if (!job) {
      await enqueueNotificationEmail(id);
      queued += 1;
    } else if (job.status === 'failed') {
      const result = await Notification.updateOne(
        { _id: id, status: 'pending' },
        { $set: { status: 'failed', 'emailResult.error': job.lastError ?? 'Not sent' } },
      );
      failed += result.modifiedCount;
    }
  }
  return { queued, failed };
}

/** Deletes a failed notification. Returns false for an unknown id; throws unless failed. */
export async function deleteNotification(id: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  const deleted = await Notification.findOneAndDelete({ _id: id, status: 'failed' }).lean();
  if (deleted) return true;
  const exists = await Notification.exists({ _id: id });
  if (!exists) return false;
  throw new NotificationStateError('delete', 'Only failed notifications can be deleted.');
}
