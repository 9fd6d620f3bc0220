import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import {
  normalizeTrackingNumber,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from '~/schemas/constants';
import type {
  NotificationCreateInput,
  NotificationStatus,
  NotificationType,
} from '~/schemas/notification';
import { connectDb } from '~/services/db.server';
import { env } from '~/services/env.server';
import { deliverNotificationEmail, type SendOptions } from '~/services/notifications.server';
import { Parcel, parcelSearchFilter, type LeanParcel } from './parcel.server';

const emailResultSchema = new Schema(
  {
    messageId: { type: String },
    error: { type: String },
    sentAt: { type: Date },
    attempts: { type: Number, default: 0 },
  },
  { _id: false },
);

const notificationSchema = new Schema(
  {
    type: { type: String, enum: NOTIFICATION_TYPES, required: true },
    recipient: { type: String, required: true, trim: true, lowercase: true },
    title: { type: String, required: true, trim: true },
    message: { type: String, required: true },
    trackingNumber: { type: String, required: true, trim: true, uppercase: true },
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel' },
    status: { type: String, enum: NOTIFICATION_STATUSES, default: 'pending' },
    emailResult: { type: emailResultSchema, default: () => ({ attempts: 0 }) },
  },
  { timestamps: true },
);

notificationSchema.index({ createdAt: -1 });
notificationSchema.index({ status: 1, createdAt: -1 });

export const Notification: Model<InferSchemaType<typeof notificationSchema>> =
  (mongoose.models.Notification as Model<InferSchemaType<typeof notificationSchema>>) ??
  mongoose.model('Notification', notificationSchema);

type LeanNotification = {
  _id: unknown;
  type: string;
  recipient: string;
  title: string;
  message: string;
  trackingNumber: string;
  parcelId?: unknown;
  status?: string | null;
  emailResult?: {
    messageId?: string | null;
    error?: string | null;
    sentAt?: Date | null;
    attempts?: number | null;
  } | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The JSON form used by the API and the dashboard. `subject` mirrors `title` for clients that read it. */
export function serializeNotification(n: LeanNotification) {
  const id = String(n._id);
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
    status: (n.status ?? 'pending') as NotificationStatus,
    emailResult: {
      messageId: n.emailResult?.messageId ?? null,
      error: n.emailResult?.error ?? null,
      sentAt: iso(n.emailResult?.sentAt),
      attempts: n.emailResult?.attempts ?? 0,
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

const isObjectId = (id: string) => /^[a-f\d]{24}$/i.test(id);

export const INTERRUPTED_SEND = 'Interrupted before it was sent';

/**
 * A send caps itself at SMTP_TIMEOUT_MS, so a notification still pending well past that (its
 * last change) was cut off by a crash or a restart: it becomes failed, so staff can retry or
 * delete it. Runs before notifications are read or acted on, in whichever process.
 */
export async function failInterruptedSends(now = Date.now()): Promise<number> {
  const cutoff = new Date(now - env.SMTP_TIMEOUT_MS - 5_000);
  const result = await Notification.updateMany(
    { status: 'pending', updatedAt: { $lt: cutoff } },
    { $set: { status: 'failed', 'emailResult.error': INTERRUPTED_SEND } },
  );
  return result.modifiedCount;
}

export async function listNotifications({
  page = 1,
  limit = 20,
  type,
  status,
}: {
  page?: number;
  limit?: number;
  type?: NotificationType;
  status?: NotificationStatus;
}) {
  await connectDb();
  await failInterruptedSends();
  const filter: Record<string, string> = {};
  if (type) filter.type = type;
  if (status) filter.status = status;
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
  await connectDb();
  await failInterruptedSends();
  const doc = await Notification.findById(id).lean<LeanNotification>();
  return doc ? serializeNotification(doc) : null;
}

/** Sends the stored notification's e-mail and records the outcome on the same record. */
async function deliverAndRecord(
  doc: LeanNotification,
  options: SendOptions,
): Promise<SerializedNotification> {
  const result = await deliverNotificationEmail(doc, options);
  const update = result.ok
    ? {
        $set: {
          status: 'sent',
          'emailResult.messageId': result.messageId,
          'emailResult.sentAt': new Date(),
        },
        $unset: { 'emailResult.error': 1 },
      }
    : { $set: { status: 'failed', 'emailResult.error': result.error } };
  const updated = await Notification.findByIdAndUpdate(doc._id, update, {
    returnDocument: 'after',
  }).lean<LeanNotification>();
  return serializeNotification(updated ?? doc);
}

/**
 * Stores the notification as pending, then sends the e-mail. The result is `sent` with the
 * message id or `failed` with the transport's error text; either way the record exists.
 */
export async function createAndSendNotification(
  input: NotificationCreateInput & { parcelId?: string },
  options: SendOptions = {},
): Promise<SerializedNotification> {
  await connectDb();
  const trackingNumber = normalizeTrackingNumber(input.trackingNumber);
  let parcelId = input.parcelId;
  if (!parcelId) {
    const parcel = await Parcel.findOne({ trackingNumber }, { _id: 1 }).lean<{ _id: unknown }>();
    if (parcel) parcelId = String(parcel._id);
  }
  const created = await Notification.create({
    type: input.type,
    recipient: input.recipient,
    title: input.title,
    message: input.message,
    trackingNumber,
    parcelId,
    status: 'pending',
    emailResult: { attempts: 1 },
  });
  return deliverAndRecord(created.toObject() as LeanNotification, options);
}

/**
 * Re-sends a failed notification and updates the same record. Returns null for an unknown id;
 * throws NotificationStateError unless the notification is failed. Claiming the record
 * (failed → pending) is atomic, so two retries at once send only one e-mail.
 */
export async function retryNotification(
  id: string,
  options: SendOptions = {},
): Promise<SerializedNotification | null> {
  if (!isObjectId(id)) return null;
  await connectDb();
  await failInterruptedSends();
  const claimed = await Notification.findOneAndUpdate(
    { _id: id, status: 'failed' },
    { $set: { status: 'pending' }, $inc: { 'emailResult.attempts': 1 } },
    { returnDocument: 'after' },
  ).lean<LeanNotification>();
  if (!claimed) {
    const exists = await Notification.exists({ _id: id });
    if (!exists) return null;
    throw new NotificationStateError('retry', 'Only failed notifications can be retried.');
  }
  return deliverAndRecord(claimed, options);
}

/** Deletes a failed notification. Returns false for an unknown id; throws unless failed. */
export async function deleteNotification(id: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  await connectDb();
  await failInterruptedSends();
  const deleted = await Notification.findOneAndDelete({ _id: id, status: 'failed' }).lean();
  if (deleted) return true;
  const exists = await Notification.exists({ _id: id });
  if (!exists) return false;
  throw new NotificationStateError('delete', 'Only failed notifications can be deleted.');
}

export async function updateNotificationStatus(
  id: string,
  status: NotificationStatus,
): Promise<SerializedNotification | null> {
  if (!isObjectId(id)) return null;
  await connectDb();
  const updated = await Notification.findByIdAndUpdate(
    id,
    { $set: { status } },
    { returnDocument: 'after' },
  ).lean<LeanNotification>();
  return updated ? serializeNotification(updated) : null;
}

export type NotificationParcelOption = {
  id: string;
  trackingNumber: string;
  status: string;
  recipientName: string;
  recipientEmail: string;
};

function toParcelOption(p: LeanParcel): NotificationParcelOption {
  return {
    id: String(p._id),
    trackingNumber: p.trackingNumber,
    status: p.status ?? 'Pending',
    recipientName: p.recipient?.name ?? '',
    recipientEmail: p.recipient?.email ?? '',
  };
}

const PARCEL_OPTION_FIELDS = {
  trackingNumber: 1,
  status: 1,
  'recipient.name': 1,
  'recipient.email': 1,
  createdAt: 1,
};

/** The newest parcels, as the send dialog offers them. */
export async function listParcelsForNotifications({
  limit,
  search,
}: {
  limit: number;
  /** Tracking number, sender or recipient name, over every parcel (parcelSearchFilter). */
  search?: string;
}): Promise<NotificationParcelOption[]> {
  await connectDb();
  const parcels = await Parcel.find(parcelSearchFilter(search), PARCEL_OPTION_FIELDS)
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<LeanParcel[]>();
  return parcels.map(toParcelOption);
}

export async function getParcelForNotification(
  id: string,
): Promise<NotificationParcelOption | null> {
  if (!isObjectId(id)) return null;
  await connectDb();
  const parcel = await Parcel.findById(id, PARCEL_OPTION_FIELDS).lean<LeanParcel>();
  return parcel ? toParcelOption(parcel) : null;
}
