import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { expectedWindow, type WindowSource } from '~/lib/parcel-delivery-data.server';
import { trackingUrl } from '~/lib/urls.server';
import { fillPlaceholders, type PlaceholderValues } from '~/schemas/notification-template';
import { longDay, windowPhrase } from '~/utils/delivery-headline';
import { recipientLanguage, translator, wordsFor } from '~/lib/i18n.server';
import type { Language } from '~/schemas/languages';
import { recipientTimeZone, type ZonedParcel } from '~/lib/address-time-zone.server';

/**
 * The admin-edited notification templates, filled in for a parcel: `{{placeholders}}` in the
 * subject, text and HTML body become the parcel's values (escaped in the HTML body).
 */
export type PlaceholderParcel = WindowSource &
  ZonedParcel & {
    trackingNumber: string;
    status?: string | null;
    recipient?: { name?: string | null; language?: string | null } | null;
  };

/** The language a parcel's e-mails are written in: its recipient's, when we write it. */
export function parcelLanguage(parcel: PlaceholderParcel): Language {
  return recipientLanguage(parcel.recipient?.language);
}

/** How the templates greet someone whose name is not known (or not theirs to be told). */
export function neutralRecipientName(language: Language): string {
  return translator(language)('values.customer');
}

/**
 * What each placeholder stands for, for this parcel, in `language` (its recipient's by default):
 * the status, days and times as the tracking page says them in that language.
 */
export function placeholderValues(
  parcel: PlaceholderParcel,
  language: Language = parcelLanguage(parcel),
): PlaceholderValues {
  const t = translator(language);
  // Days and times as the tracking page says them, in the recipient's zone.
  const timeZone = recipientTimeZone(parcel);
  const status = parcel.status ?? 'Pending';
  const day = parcel.estimatedDelivery
    ? longDay(new Date(parcel.estimatedDelivery).toISOString().slice(0, 10), language)
    : t('values.toBeConfirmed');
  return {
    trackingNumber: parcel.trackingNumber,
    status: t(`status.${status}`, { defaultValue: status }),
    recipientName: parcel.recipient?.name?.trim() || neutralRecipientName(language),
    estimatedDelivery: day,
    trackingUrl: trackingUrl(parcel.trackingNumber),
    companyName: env.COMPANY_NAME,
    // As the tracking page says them: "Friday, 3 July", "between 2 pm and 4 pm" or "by 6 pm".
    deliveryDay: day,
    deliveryWindow:
      windowPhrase(expectedWindow(parcel, timeZone), timeZone, wordsFor(language)) ??
      t('values.duringTheDay'),
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
