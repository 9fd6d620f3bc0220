import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import type { NotificationType } from '~/schemas/notification';
import {
  DEFAULT_NOTIFICATION_TEMPLATES,
  fillPlaceholders,
  type NotificationTemplate,
  type NotificationTemplateInput,
  type PlaceholderValues,
} from '~/schemas/notification-template';
import { env } from '~/lib/env.server';
import { escapeHtml } from '~/services/mailer.server';
import { trackingUrl } from '~/services/notifications.server';
import { formatDate } from '~/utils/format';

/**
 * The notification templates admins edit: one document per notification type, holding the
 * admin's version. A type without a document uses the default (DEFAULT_NOTIFICATION_TEMPLATES);
 * reset deletes the document.
 */
const templateSchema = new Schema(
  {
    type: { type: String, enum: NOTIFICATION_TYPES, required: true, unique: true },
    subject: { type: String, default: '' },
    text: { type: String, default: '' },
    html: { type: String, default: '' },
  },
  { timestamps: true },
);

type TemplateSchema = InferSchemaType<typeof templateSchema>;
export const NotificationTemplateModel: Model<TemplateSchema> =
  (mongoose.models.NotificationTemplate as Model<TemplateSchema>) ??
  mongoose.model('NotificationTemplate', templateSchema);

/** A template's id in URLs and the API: its type in lower case with dashes ('status-update'). */
export function templateIdOf(type: NotificationType): string {
  return type.toLowerCase().replace(/\s+/g, '-');
}

export function templateTypeOf(id: string): NotificationType | null {
  return NOTIFICATION_TYPES.find((type) => templateIdOf(type) === id) ?? null;
}

type LeanTemplate = {
  type: string;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  updatedAt?: Date | null;
};

function toTemplate(type: NotificationType, doc: LeanTemplate | null): NotificationTemplate {
  const source = doc ?? DEFAULT_NOTIFICATION_TEMPLATES[type];
  return {
    id: templateIdOf(type),
    type,
    subject: source.subject ?? '',
    text: source.text ?? '',
    html: source.html ?? '',
    customized: Boolean(doc),
    updatedAt: doc?.updatedAt ? new Date(doc.updatedAt).toISOString() : null,
  };
}

export async function listNotificationTemplates(): Promise<NotificationTemplate[]> {
  const docs = await NotificationTemplateModel.find({}).lean<LeanTemplate[]>();
  return NOTIFICATION_TYPES.map((type) =>
    toTemplate(type, docs.find((doc) => doc.type === type) ?? null),
  );
}

export async function getNotificationTemplate(type: NotificationType) {
  const doc = await NotificationTemplateModel.findOne({ type }).lean<LeanTemplate>();
  return toTemplate(type, doc);
}

export async function saveNotificationTemplate(
  type: NotificationType,
  input: NotificationTemplateInput,
): Promise<NotificationTemplate> {
  const doc = await NotificationTemplateModel.findOneAndUpdate(
    { type },
    { $set: { subject: input.subject, text: input.text, html: input.html } },
    { upsert: true, returnDocument: 'after' },
  ).lean<LeanTemplate>();
  return toTemplate(type, doc);
}

export async function resetNotificationTemplate(
  type: NotificationType,
): Promise<NotificationTemplate> {
  await NotificationTemplateModel.deleteOne({ type });
  return toTemplate(type, null);
}

export type PlaceholderParcel = {
  trackingNumber: string;
  status?: string | null;
  recipient?: { name?: string | null } | null;
  estimatedDelivery?: Date | string | null;
};

/** What each placeholder stands for, for this parcel. */
export function placeholderValues(parcel: PlaceholderParcel): PlaceholderValues {
  return {
    trackingNumber: parcel.trackingNumber,
    status: parcel.status ?? 'Pending',
    recipientName: parcel.recipient?.name?.trim() || 'customer',
    estimatedDelivery: parcel.estimatedDelivery
      ? formatDate(parcel.estimatedDelivery)
      : 'to be confirmed',
    trackingUrl: trackingUrl(parcel.trackingNumber),
    companyName: env.COMPANY_NAME,
  };
}

/** A template (or staff-typed text) filled in for a parcel; the HTML body's values escaped. */
export function fillTemplate(
  template: { subject: string; text: string; html?: string },
  values: PlaceholderValues,
): { subject: string; text: string; html: string } {
  return {
    subject: fillPlaceholders(template.subject, values).replace(/\s+/g, ' ').trim(),
    text: fillPlaceholders(template.text, values),
    html: template.html ? fillPlaceholders(template.html, values, escapeHtml) : '',
  };
}
