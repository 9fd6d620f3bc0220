import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { trackingUrl } from '~/lib/urls.server';
import { fillPlaceholders, type PlaceholderValues } from '~/schemas/notification-template';
import { formatDate } from '~/utils/format';

/**
 * The admin-edited notification templates, filled in for a parcel: `{{placeholders}}` in the
 * subject, text and HTML body become the parcel's values (escaped in the HTML body).
 */
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
