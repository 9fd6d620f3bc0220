import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { expectedWindow, type WindowSource } from '~/lib/parcel-delivery-data.server';
import { trackingUrl } from '~/lib/urls.server';
import { fillPlaceholders, type PlaceholderValues } from '~/schemas/notification-template';
import { longDay, windowPhrase } from '~/utils/delivery-headline';
import { recipientTimeZone, type ZonedParcel } from '~/lib/address-time-zone.server';

/**
 * The admin-edited notification templates, filled in for a parcel: `{{placeholders}}` in the
 * subject, text and HTML body become the parcel's values (escaped in the HTML body).
 */
export type PlaceholderParcel = WindowSource &
  ZonedParcel & {
    trackingNumber: string;
    status?: string | null;
    recipient?: { name?: string | null } | null;
  };

/** How the templates greet someone whose name is not known (or not theirs to be told). */
export const NEUTRAL_RECIPIENT_NAME = 'customer';

/** What each placeholder stands for, for this parcel. */
export function placeholderValues(parcel: PlaceholderParcel): PlaceholderValues {
  // Days and times as the tracking page says them, in the recipient's zone.
  const timeZone = recipientTimeZone(parcel);
  return {
    trackingNumber: parcel.trackingNumber,
    status: parcel.status ?? 'Pending',
    recipientName: parcel.recipient?.name?.trim() || NEUTRAL_RECIPIENT_NAME,
    estimatedDelivery: parcel.estimatedDelivery
      ? longDay(new Date(parcel.estimatedDelivery).toISOString().slice(0, 10))
      : 'to be confirmed',
    trackingUrl: trackingUrl(parcel.trackingNumber),
    companyName: env.COMPANY_NAME,
    // As the tracking page says them: "Friday, 3 July", "between 2 pm and 4 pm" or "by 6 pm".
    deliveryDay: parcel.estimatedDelivery
      ? longDay(new Date(parcel.estimatedDelivery).toISOString().slice(0, 10))
      : 'to be confirmed',
    deliveryWindow: windowPhrase(expectedWindow(parcel, timeZone), timeZone) ?? 'during the day',
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
