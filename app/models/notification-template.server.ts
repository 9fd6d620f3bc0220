import { Schema } from 'mongoose';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import type { NotificationType } from '~/schemas/notification';
import type {
  NotificationTemplate,
  NotificationTemplateInput,
} from '~/schemas/notification-template';
import { shippedTemplate, templateAsShipped } from '~/lib/i18n.server';
import { SOURCE_LANGUAGE, type Language } from '~/schemas/languages';
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

/**
 * An admin's version of a template in a language other than English (English's is above): one
 * document per type and language.
 */
const translationSchema = new Schema(
  {
    type: { type: String, enum: NOTIFICATION_TYPES, required: true },
    language: { type: String, required: true },
    subject: { type: String, default: '' },
    text: { type: String, default: '' },
    html: { type: String, default: '' },
  },
  { timestamps: true },
);
translationSchema.index({ type: 1, language: 1 }, { unique: true });

export const NotificationTemplateTranslation = registeredModel(
  'NotificationTemplateTranslation',
  translationSchema,
  'notification_template_translations',
);

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

function toTemplate(
  type: NotificationType,
  doc: LeanTemplate | null,
  language: Language = SOURCE_LANGUAGE,
): NotificationTemplate {
  // A language's own version: the admin's, else the one shipped; else English's stands in.
  const shipped = language === SOURCE_LANGUAGE ? null : shippedTemplate(type, language);
  const source = doc ?? shipped ?? templateAsShipped(type, SOURCE_LANGUAGE);
  return {
    id: templateIdOf(type),
    type,
    language,
    translated: language === SOURCE_LANGUAGE || Boolean(doc ?? shipped),
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

/** A template in `language`; a language without its own version shows English's. */
export async function getNotificationTemplate(
  type: NotificationType,
  language: Language = SOURCE_LANGUAGE,
): Promise<NotificationTemplate> {
  if (language === SOURCE_LANGUAGE) {
    const doc = await NotificationTemplateModel.findOne({ type }).lean<LeanTemplate>();
    return toTemplate(type, doc);
  }
  const doc = await NotificationTemplateTranslation.findOne({
    type,
    language,
  }).lean<LeanTemplate>();
  if (doc || shippedTemplate(type, language)) return toTemplate(type, doc, language);
  // Not translated: English's (an admin's or the shipped one) is what is sent.
  return {
    ...(await getNotificationTemplate(type)),
    language,
    translated: false,
    customized: false,
  };
}

export async function upsertNotificationTemplate(
  type: NotificationType,
  input: NotificationTemplateInput,
  language: Language = SOURCE_LANGUAGE,
): Promise<NotificationTemplate> {
  const fields = { $set: { subject: input.subject, text: input.text, html: input.html } };
  const options = { upsert: true, returnDocument: 'after' } as const;
  if (language === SOURCE_LANGUAGE) {
    const doc = await NotificationTemplateModel.findOneAndUpdate(
      { type },
      fields,
      options,
    ).lean<LeanTemplate>();
    return toTemplate(type, doc);
  }
  const doc = await NotificationTemplateTranslation.findOneAndUpdate(
    { type, language },
    fields,
    options,
  ).lean<LeanTemplate>();
  return toTemplate(type, doc, language);
}

/** Back to the default: the template as shipped in that language (else English's). */
export async function deleteNotificationTemplate(
  type: NotificationType,
  language: Language = SOURCE_LANGUAGE,
): Promise<NotificationTemplate> {
  if (language === SOURCE_LANGUAGE) await NotificationTemplateModel.deleteOne({ type });
  else await NotificationTemplateTranslation.deleteOne({ type, language });
  return getNotificationTemplate(type, language);
}
