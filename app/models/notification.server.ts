import {
  Schema,
  type InferSchemaType,
  type QueryFilter,
  type Types,
  type UpdateQuery,
} from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import {
  normalizeTrackingNumber,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from '~/schemas/constants';
import type { NotificationStatus, NotificationType } from '~/schemas/notification';
import type { NotificationChannel } from '~/schemas/constants';
import { ConflictError } from '~/lib/errors.server';
import { iso, registeredModel, serializedById } from '~/lib/records.server';
import {
  recordDeletion,
  setIfFound,
  syncedList,
  withChange,
  withChangeIf,
  type SyncRequest,
} from '~/lib/changes.server';

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
    /** The language its e-mail is written in (its recipient's); none: English, as before. */
    language: { type: String },
    trackingNumber: { type: String, required: true, trim: true, uppercase: true },
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel' },
    status: { type: String, enum: NOTIFICATION_STATUSES, default: 'pending' },
    emailResult: { type: emailResultSchema, default: () => ({ attempts: 0 }) },
    /** The `email.send` job that delivers it. */
    jobId: { type: Schema.Types.ObjectId },
    /**
     * The unique key of that job, stored with the notification before the job is queued: a
     * process that finds the notification without its job (at start) queues under this key, so
     * it meets the job the request is queueing instead of making a second one.
     */
    jobKey: { type: String },
    /** An e-mail to an address, or a text to a phone number in E.164 (its body the message). */
    channel: { type: String, enum: NOTIFICATION_CHANNELS, default: 'email' },
    /** A text that offers the recipient choices to reply with (1, 2). */
    replyChoices: { type: Boolean },
    /** Queued by a status change (automatic e-mails), not by a staff member. */
    automatic: { type: Boolean, default: false },
    /** The tracking event whose status change queued it (automatic ones). */
    eventId: { type: Schema.Types.ObjectId },
    /** The change that last wrote it, in the order syncs read (app/lib/changes.server.ts). */
    changeSeq: { type: Number, default: 0 },
  },
  { timestamps: true },
);

notificationSchema.index({ createdAt: -1 });
notificationSchema.index({ status: 1, createdAt: -1 });
notificationSchema.index({ trackingNumber: 1, createdAt: -1 });
notificationSchema.index({ parcelId: 1, createdAt: -1 });
notificationSchema.index({ changeSeq: 1, _id: 1 });
notificationSchema.index({ recipient: 1, channel: 1, createdAt: -1 });

export const Notification = registeredModel('Notification', notificationSchema);

/** A notification as stored (its HTML body, when there is one, already filled in and escaped). */
export type LeanNotification = InferSchemaType<typeof notificationSchema> & {
  _id: Types.ObjectId;
};

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
    channel: (n.channel ?? 'email') as NotificationChannel,
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
export class NotificationStateError extends ConflictError {
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

type NotificationListOptions = {
  page?: number;
  limit?: number;
  type?: NotificationType;
  status?: NotificationStatus;
  trackingNumber?: string;
  automatic?: boolean;
};

function notificationListFilter({
  type,
  status,
  trackingNumber,
  automatic,
}: NotificationListOptions): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (type) filter.type = type;
  if (status) filter.status = status;
  if (trackingNumber) filter.trackingNumber = normalizeTrackingNumber(trackingNumber);
  // Notifications stored before automatic ones existed have no flag: they were manual.
  if (automatic !== undefined) filter.automatic = automatic ? true : { $ne: true };
  return filter;
}

const notificationList = syncedList(
  Notification,
  'notification',
  'notifications',
  serializeNotification,
  { limit: 20 },
);

export async function listNotifications(options: NotificationListOptions) {
  const { items, pagination } = await notificationList.page(
    notificationListFilter(options),
    { createdAt: -1, _id: -1 },
    options,
  );
  return { notifications: items, pagination };
}

/** A page of a sync of the notifications, deleted ones included (see findChanges). */
export async function listNotificationChanges(options: NotificationListOptions & SyncRequest) {
  const { items, ...rest } = await notificationList.changes(
    notificationListFilter(options),
    options,
  );
  return { notifications: items, ...rest };
}

export async function getNotification(id: string): Promise<SerializedNotification | null> {
  return serializedById(
    id,
    (id) => Notification.findById(id).lean<LeanNotification>(),
    serializeNotification,
  );
}

/** What a new notification stores: its e-mail's text already filled in for the parcel. */
export type NewNotification = {
  type: NotificationType;
  recipient: string;
  title: string;
  message: string;
  html?: string;
  /** The language (ours) its e-mail is written in: its parcel's recipient's. */
  language?: string;
  trackingNumber: string;
  parcelId: string;
  automatic?: boolean;
  eventId?: string;
  channel?: NotificationChannel;
  replyChoices?: boolean;
  /** The unique key its `email.send` job will be queued under. */
  jobKey?: string;
};

/** Stores a notification as pending; `id` lets the caller choose its id. */
export async function insertNotification(
  input: NewNotification & { id?: string },
): Promise<SerializedNotification> {
  const { id, html, ...fields } = input;
  const created = await withChange((changeSeq) =>
    Notification.create({
      ...(id ? { _id: id } : {}),
      ...fields,
      ...(html ? { html } : {}),
      status: 'pending',
      emailResult: { attempts: 0 },
      changeSeq,
    }),
  );
  return serializeNotification(created.toObject() as LeanNotification);
}

export async function removeNotification(id: string): Promise<void> {
  await withChangeIf(
    () => Notification.exists({ _id: id }),
    async (changeSeq) => {
      const deleted = await Notification.findOneAndDelete({ _id: id }, { projection: { _id: 1 } });
      if (deleted) await recordDeletion({ kind: 'notification', recordId: id, changeSeq });
    },
  );
}

/**
 * Links the notification to the `email.send` job that delivers it. The link is not part of what
 * the API shows, so it leaves `updatedAt` as the answer that created the notification gave it.
 */
export async function setNotificationJob(
  id: string,
  jobId: string,
): Promise<SerializedNotification | null> {
  const doc = await Notification.findByIdAndUpdate(
    id,
    { $set: { jobId } },
    { returnDocument: 'after', timestamps: false },
  ).lean<LeanNotification>();
  return doc ? serializeNotification(doc) : null;
}

type NotificationFields = InferSchemaType<typeof notificationSchema>;

/** The notification `filter` finds, changed by `update` (given the change's number), as it is after. */
function changedNotification(
  filter: QueryFilter<NotificationFields>,
  update: (changeSeq: number) => UpdateQuery<NotificationFields>,
): Promise<LeanNotification | null> {
  return withChange((changeSeq) =>
    Notification.findOneAndUpdate(filter, update(changeSeq), {
      returnDocument: 'after',
    }).lean<LeanNotification>(),
  );
}

/**
 * Counts an attempt at a pending notification's e-mail by the job `jobId` and returns what it
 * says; null when the notification is no longer pending (sent, failed or deleted), or when
 * another job is the one that delivers it, so it is not sent again.
 */
export async function startNotificationAttempt(
  id: string,
  jobId: string,
): Promise<LeanNotification | null> {
  if (!isObjectId(jobId)) return null;
  return changedNotification(
    { _id: id, status: 'pending', jobId: { $in: [null, jobId] } },
    (changeSeq) => ({
      $inc: { 'emailResult.attempts': 1 },
      $unset: { 'emailResult.nextAttemptAt': 1 },
      $set: { changeSeq },
    }),
  );
}

export async function markNotificationSent(
  id: string,
  messageId: string,
): Promise<SerializedNotification | null> {
  const doc = await changedNotification({ _id: id }, (changeSeq) => ({
    $set: {
      status: 'sent',
      'emailResult.messageId': messageId,
      'emailResult.sentAt': new Date(),
      changeSeq,
    },
    $unset: { 'emailResult.error': 1, 'emailResult.nextAttemptAt': 1 },
  }));
  return doc ? serializeNotification(doc) : null;
}

/** A refused attempt of a pending notification: the error, and when the next one is due. */
export async function recordNotificationError(id: string, error: string, nextAttemptAt?: Date) {
  await withChange((changeSeq) =>
    Notification.updateOne(
      { _id: id, status: 'pending' },
      {
        $set: {
          'emailResult.error': error,
          ...(nextAttemptAt ? { 'emailResult.nextAttemptAt': nextAttemptAt } : {}),
          changeSeq,
        },
      },
    ),
  );
}

/** A pending notification whose last attempt failed becomes failed; null if it was not pending. */
export async function markNotificationFailed(
  id: string,
  error: string,
): Promise<SerializedNotification | null> {
  const doc = await changedNotification({ _id: id, status: 'pending' }, (changeSeq) => ({
    $set: { status: 'failed', 'emailResult.error': error, changeSeq },
  }));
  return doc ? serializeNotification(doc) : null;
}

/** Every pending notification, with the job that should be sending it. */
export async function listPendingNotifications(): Promise<
  Array<{ id: string; jobId: string | null; jobKey: string | null; channel: NotificationChannel }>
> {
  const docs = await Notification.find(
    { status: 'pending' },
    { _id: 1, jobId: 1, jobKey: 1, channel: 1 },
  ).lean<Array<{ _id: unknown; jobId?: unknown; jobKey?: string | null; channel?: string }>>();
  return docs.map((n) => ({
    id: String(n._id),
    jobId: n.jobId ? String(n.jobId) : null,
    jobKey: n.jobKey ?? null,
    channel: (n.channel ?? 'email') as NotificationChannel,
  }));
}

/** A text held for the recipient's quiet hours: pending, with when it will go. */
export async function recordNotificationHeld(id: string, until: Date) {
  await withChange((changeSeq) =>
    Notification.updateOne(
      { _id: id, status: 'pending' },
      { $set: { 'emailResult.nextAttemptAt': until, changeSeq } },
    ),
  );
}

/**
 * The newest text sent to this number (with `replyChoices`, the newest that offered choices): the
 * parcel a reply from it is about. Null when none went to it.
 */
export async function findNewestTextTo(
  phone: string,
  { replyChoices = false }: { replyChoices?: boolean } = {},
): Promise<{ id: string; parcelId: string; trackingNumber: string } | null> {
  const doc = await Notification.findOne(
    { recipient: phone, channel: 'sms', status: 'sent', ...(replyChoices ? { replyChoices } : {}) },
    { parcelId: 1, trackingNumber: 1 },
  )
    .sort({ createdAt: -1, _id: -1 })
    .lean<{ _id: unknown; parcelId?: unknown; trackingNumber: string }>();
  return doc?.parcelId
    ? { id: String(doc._id), parcelId: String(doc.parcelId), trackingNumber: doc.trackingNumber }
    : null;
}

/** The e-mails sent about a parcel, newest first, for its tracking timeline. */
export async function listSentEmailsForParcel(parcelId: string) {
  if (!isObjectId(parcelId)) return [];
  const docs = await Notification.find(
    { parcelId, status: 'sent', channel: { $ne: 'sms' } },
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
 * Claims a failed notification for another try: it becomes pending again, and is returned with
 * the job that sent it. Null for an unknown id; NotificationStateError unless it is failed.
 * Claiming (failed → pending) is atomic, so two retries at once make one.
 */
export async function claimFailedNotification(
  id: string,
): Promise<{ notification: SerializedNotification; jobId: string | null } | null> {
  if (!isObjectId(id)) return null;
  const claimed = await setIfFound(
    Notification,
    { _id: id, status: 'failed' },
    { status: 'pending' },
    (doc: LeanNotification) => ({
      notification: serializeNotification(doc),
      jobId: doc.jobId ? String(doc.jobId) : null,
    }),
  );
  if (claimed) return claimed;
  const exists = await Notification.exists({ _id: id });
  if (!exists) return null;
  throw new NotificationStateError('retry', 'Only failed notifications can be retried.');
}

/** Deletes a failed notification. Returns false for an unknown id; throws unless failed. */
export async function deleteFailedNotification(id: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  const deleted = await withChangeIf(
    () => Notification.exists({ _id: id, status: 'failed' }),
    async (changeSeq) => {
      const doc = await Notification.findOneAndDelete({ _id: id, status: 'failed' }).lean();
      if (doc) await recordDeletion({ kind: 'notification', recordId: id, changeSeq });
      return doc;
    },
  );
  if (deleted) return true;
  const exists = await Notification.exists({ _id: id });
  if (!exists) return false;
  throw new NotificationStateError('delete', 'Only failed notifications can be deleted.');
}
