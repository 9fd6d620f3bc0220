import { notificationEmail } from '~/emails/notification.server';
import { fillTemplate, placeholderValues } from '~/emails/templates.server';
import {
  deleteNotificationTemplate,
  getNotificationTemplate,
  upsertNotificationTemplate,
} from '~/models/notification-template.server';
import { getParcelForTemplate } from '~/models/parcel-reads.server';
import type { NotificationType } from '~/schemas/notification';
import {
  unknownPlaceholderMessage,
  unknownPlaceholders,
  type NotificationTemplate,
  type NotificationTemplateInput,
} from '~/schemas/notification-template';
import {
  getNotificationSettings,
  saveNotificationSettings,
} from '~/models/notification-settings.server';
import type { NotificationSettingsInput } from '~/schemas/notification-settings';
import { auditedUpdate, auditRecord, type Actor } from './audit.server';
import { SOURCE_LANGUAGE, type Language } from '~/schemas/languages';
import { deleteSmsTemplate, getSmsTemplate, saveSmsTemplate } from '~/models/sms-template.server';
import { DEFAULT_TEXT_TEMPLATES } from '~/emails/texts.server';
import { NotFoundError, ValidationError } from '~/lib/errors.server';
import { getAccount } from '~/models/account.server';
import {
  TEXT_EVENT_LABELS,
  TEXT_LANGUAGE_NAMES,
  TEXT_PLACEHOLDERS,
  TOO_MANY_SEGMENTS,
  type TextEvent,
  type TextLanguage,
} from '~/schemas/texts';
import { countSms, MAX_SMS_SEGMENTS } from '~/utils/sms-segments';

/** The template an automatic text of `event` is made with in `language`: an admin's, else the default. */
export async function textTemplate(event: TextEvent, language: TextLanguage) {
  return (await getSmsTemplate(event, language)) ?? DEFAULT_TEXT_TEMPLATES[event][language];
}

/**
 * An admin's text template for an event and language, audited; an empty body (or a reset) goes
 * back to the default. A ValidationError for one over MAX_SMS_SEGMENTS messages.
 */
export async function saveTextTemplate(
  event: TextEvent,
  language: TextLanguage,
  body: string,
  actor?: Actor,
) {
  if (countSms(body).segments > MAX_SMS_SEGMENTS)
    throw new ValidationError({ body: [TOO_MANY_SEGMENTS] });
  if (unknownPlaceholders(body, TEXT_PLACEHOLDERS).length)
    throw new ValidationError({ body: [unknownPlaceholderMessage(body, TEXT_PLACEHOLDERS)] });
  const id = `text-${event}-${language}`;
  const read = async () => ({ id, body: await textTemplate(event, language) });
  return auditedUpdate(
    actor,
    'template',
    () => `Text: ${TEXT_EVENT_LABELS[event]} (${TEXT_LANGUAGE_NAMES[language]})`,
    {
      read,
      write: async () => {
        if (body) await saveSmsTemplate(event, language, body);
        else await deleteSmsTemplate(event, language);
        return read();
      },
    },
  );
}

/**
 * An admin's changes to the e-mail templates and the automatic e-mail rules (the settings pages
 * and the API), audited; and the template an automatic e-mail is made with.
 */

/** The audit trail's name for a template in a language: English's is its type alone. */
function templateLabel(type: NotificationType, language: Language) {
  return language === SOURCE_LANGUAGE ? type : `${type} (${TEXT_LANGUAGE_NAMES[language]})`;
}

/** Changes a template in a language through `write`, audited with the template as it was. */
function changeTemplate(
  type: NotificationType,
  language: Language,
  actor: Actor | undefined,
  write: () => Promise<NotificationTemplate>,
): Promise<NotificationTemplate> {
  return auditedUpdate(actor, 'template', () => templateLabel(type, language), {
    read: () => getNotificationTemplate(type, language),
    write,
  });
}

export async function saveNotificationTemplate(
  type: NotificationType,
  input: NotificationTemplateInput,
  actor?: Actor,
  language: Language = SOURCE_LANGUAGE,
): Promise<NotificationTemplate> {
  return changeTemplate(type, language, actor, () =>
    upsertNotificationTemplate(type, input, language),
  );
}

/** Back to the default template (in `language`: as shipped, else English's). */
export async function resetNotificationTemplate(
  type: NotificationType,
  actor?: Actor,
  language: Language = SOURCE_LANGUAGE,
): Promise<NotificationTemplate> {
  return changeTemplate(type, language, actor, () => deleteNotificationTemplate(type, language));
}

/** The e-mail a template makes for a parcel: subject, text and the full HTML message. */
export async function previewNotificationTemplate(
  template: { subject: string; text: string; html: string },
  parcelId: string,
  language?: Language,
) {
  const placeholders = await placeholdersForParcel(parcelId, language);
  if (!placeholders) return null;
  const { trackingNumber, values } = placeholders;
  const filled = fillTemplate(template, values);
  const email = notificationEmail({
    language,
    recipient: '',
    title: filled.subject,
    message: filled.text,
    html: filled.html,
    trackingNumber,
  });
  return { trackingNumber, ...email };
}

/** What each placeholder stands for with a parcel, for a message being written to its recipient. */
export async function placeholdersForParcel(parcelId: string, language?: Language) {
  const parcel = await getParcelForTemplate({ id: parcelId });
  if (!parcel) return null;
  return {
    parcelId,
    trackingNumber: parcel.trackingNumber,
    values: placeholderValues(parcel, language),
  };
}

/**
 * The template an automatic e-mail of `type` is made with, in the recipient's `language`: the
 * admins' own in that language, else the template as shipped in it (app/locales/<language>/
 * templates.json), else English's. An empty one (a Custom template not written yet) cannot make
 * an e-mail: the Status Update one stands in.
 */
export async function automaticEmailTemplate(
  type: NotificationType,
  language: Language = SOURCE_LANGUAGE,
): Promise<Pick<NotificationTemplate, 'subject' | 'text' | 'html'>> {
  const template = await getNotificationTemplate(type, language);
  if (!template.subject.trim() || !template.text.trim())
    return type === 'Status Update' ? template : automaticEmailTemplate('Status Update', language);
  return template;
}

/**
 * Changes the automatic e-mail rules: one rule per status given (the others keep theirs), and
 * the day-before e-mail's when given; audited as the settings' change.
 */
export async function saveAutomaticEmailSettings(input: NotificationSettingsInput, actor?: Actor) {
  const { accountId } = input;
  // An account's texts: for an account that exists.
  if (accountId && !(await getAccount(accountId))) throw new NotFoundError('Account not found');
  const before = await getNotificationSettings(accountId);
  const after = await saveNotificationSettings(input);
  const id = accountId ? `automatic-texts-${accountId}` : 'automatic-emails';
  if (input.rules.length || input.dayBefore || input.texts)
    await auditRecord(actor, 'update', 'settings', {
      label: accountId ? `Automatic texts of account ${accountId}` : 'Automatic e-mails',
      before: { id, ...before },
      after: { id, ...after },
    });
  return after;
}
