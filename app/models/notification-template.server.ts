import { Schema } from 'mongoose';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import type { NotificationType } from '~/schemas/notification';
import type {
  NotificationTemplate,
  NotificationTemplateInput,
} from '~/schemas/notification-template';
import { templateAsShipped } from '~/lib/i18n.server';
import { SOURCE_LANGUAGE } from '~/schemas/languages';
import { iso, registeredModel } from '~/lib/records.server';

/**
 * The notification templates admins edit: one document per notification type, holding the
 * admin's version. A type without a document uses the default (the English one shipped in app/locales/en/templates.json);
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

export const NotificationTemplateModel = registeredModel('NotificationTemplate', templateSchema);

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
  const source = doc ?? templateAsShipped(type, SOURCE_LANGUAGE);
  return {
    id: templateIdOf(type),
    type,
    subject: source.subject ?? '',
    text: source.text ?? '',
    html: source.html ?? '',
    customized: Boolean(doc),
    updatedAt: iso(doc?.updatedAt),
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

export async function upsertNotificationTemplate(
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

export async function deleteNotificationTemplate(
  type: NotificationType,
): Promise<NotificationTemplate> {
  await NotificationTemplateModel.deleteOne({ type });
  return toTemplate(type, null);
}
