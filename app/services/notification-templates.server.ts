import { notificationEmail } from '~/emails/notification.server';
import { fillTemplate, placeholderValues } from '~/emails/templates.server';
import {
  deleteNotificationTemplate,
  getNotificationTemplate,
  upsertNotificationTemplate,
} from '~/models/notification-template.server';
import { getParcelForTemplate } from '~/models/parcel.server';
import type { NotificationType } from '~/schemas/notification';
import type {
  NotificationTemplate,
  NotificationTemplateInput,
} from '~/schemas/notification-template';
import { auditedUpdate, type Actor } from './audit.server';

/** An admin's changes to the e-mail templates (the settings page and the API), audited. */

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
