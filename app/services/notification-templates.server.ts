import { notificationEmail } from '~/emails/notification.server';
import { fillTemplate, placeholderValues } from '~/emails/templates.server';
import {
  deleteNotificationTemplate,
  getNotificationTemplate,
  upsertNotificationTemplate,
} from '~/models/notification-template.server';
import { getParcelForTemplate } from '~/models/parcel-reads.server';
import type { NotificationType } from '~/schemas/notification';
import type {
  NotificationTemplate,
  NotificationTemplateInput,
} from '~/schemas/notification-template';
import {
  getNotificationSettings,
  saveNotificationSettings,
} from '~/models/notification-settings.server';
import type { NotificationSettingsInput } from '~/schemas/notification-settings';
import { auditedUpdate, auditRecord, type Actor } from './audit.server';
import { shippedTemplate } from '~/lib/i18n.server';
import { SOURCE_LANGUAGE, type Language } from '~/schemas/languages';

/**
 * An admin's changes to the e-mail templates and the automatic e-mail rules (the settings pages
 * and the API), audited; and the template an automatic e-mail is made with.
 */

export async function saveNotificationTemplate(
  type: NotificationType,
  input: NotificationTemplateInput,
  actor?: Actor,
): Promise<NotificationTemplate> {
  return auditedUpdate(actor, 'template', () => type, {
    read: () => getNotificationTemplate(type),
    write: () => upsertNotificationTemplate(type, input),
  });
}

/** Back to the default template. */
export async function resetNotificationTemplate(
  type: NotificationType,
  actor?: Actor,
): Promise<NotificationTemplate> {
  return auditedUpdate(actor, 'template', () => type, {
    read: () => getNotificationTemplate(type),
    write: () => deleteNotificationTemplate(type),
  });
}

/** The e-mail a template makes for a parcel: subject, text and the full HTML message. */
export async function previewNotificationTemplate(
  template: { subject: string; text: string; html: string },
  parcelId: string,
) {
  const placeholders = await placeholdersForParcel(parcelId);
  if (!placeholders) return null;
  const { trackingNumber, values } = placeholders;
  const filled = fillTemplate(template, values);
  const email = notificationEmail({
    recipient: '',
    title: filled.subject,
    message: filled.text,
    html: filled.html,
    trackingNumber,
  });
  return { trackingNumber, ...email };
}

/** What each placeholder stands for with a parcel, for a message being written to its recipient. */
export async function placeholdersForParcel(parcelId: string) {
  const parcel = await getParcelForTemplate({ id: parcelId });
  if (!parcel) return null;
  return { parcelId, trackingNumber: parcel.trackingNumber, values: placeholderValues(parcel) };
}

/**
 * The template an automatic e-mail of `type` is made with, in the recipient's `language`: the
 * admins' own in English, the template as shipped in another language (app/locales/<language>/
 * templates.json), else English's. An empty one (a Custom template not written yet) cannot make
 * an e-mail: the Status Update one stands in.
 */
export async function automaticEmailTemplate(
  type: NotificationType,
  language: Language = SOURCE_LANGUAGE,
): Promise<Pick<NotificationTemplate, 'subject' | 'text' | 'html'>> {
  const template =
    (language === SOURCE_LANGUAGE ? null : shippedTemplate(type, language)) ??
    (await getNotificationTemplate(type));
  if (!template.subject.trim() || !template.text.trim())
    return type === 'Status Update' ? template : automaticEmailTemplate('Status Update', language);
  return template;
}

/**
 * Changes the automatic e-mail rules: one rule per status given (the others keep theirs), and
 * the day-before e-mail's when given; audited as the settings' change.
 */
export async function saveAutomaticEmailSettings(input: NotificationSettingsInput, actor?: Actor) {
  const before = await getNotificationSettings();
  const after = await saveNotificationSettings(input);
  if (input.rules.length || input.dayBefore)
    await auditRecord(actor, 'update', 'settings', {
      label: 'Automatic e-mails',
      before: { id: 'automatic-emails', ...before },
      after: { id: 'automatic-emails', ...after },
    });
  return after;
}
