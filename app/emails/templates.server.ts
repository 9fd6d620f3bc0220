import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { expectedWindow, type WindowSource } from '~/lib/parcel-delivery-data.server';
import { trackingUrl } from '~/lib/urls.server';
import { fillPlaceholders, type PlaceholderValues } from '~/schemas/notification-template';
import { longDay, windowPhrase } from '~/utils/delivery-headline';
import { recipientTimeZone, type ZonedParcel } from '~/lib/address-time-zone.server';
import { FAILURE_REASONS, type FailureReason } from '~/schemas/constants';

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

/**
 * What a failed attempt's e-mail adds to its template: what happened (the reason in words, and the
 * courier's note for "other") and what happens next (the next attempt's day, or how to reach us).
 */
export function failedAttemptLines(attempt: {
  reason?: string | null;
  description?: string | null;
  nextAttemptDate?: string | null;
}): string[] {
  if (!attempt.reason) return [];
  const words = FAILURE_REASONS[attempt.reason as FailureReason] ?? FAILURE_REASONS.other;
  const note = attempt.reason === 'other' && attempt.description ? ` (${attempt.description})` : '';
  const next = attempt.nextAttemptDate
    ? `We will try again on ${longDay(attempt.nextAttemptDate)}.`
    : `Please contact us at ${env.COMPANY_PHONE} or ${env.COMPANY_EMAIL} to arrange a new delivery.`;
  return [`What happened: ${words}${note}.`, `What happens next: ${next}`];
}

/** A filled template under its own subject, its text and HTML opening with `line`. */
export function withLead(
  filled: { subject: string; text: string; html: string },
  { subject, line }: { subject: string; line: string },
) {
  return {
    subject,
    text: `${line}\n\n${filled.text}`,
    html: filled.html ? `<p><strong>${escapeHtml(line)}</strong></p>${filled.html}` : '',
  };
}

/** Appends failedAttemptLines to a filled template: text lines, and escaped paragraphs in HTML. */
export function withFailedAttempt(
  filled: { subject: string; text: string; html: string },
  lines: string[],
) {
  if (!lines.length) return filled;
  return {
    ...filled,
    text: [filled.text.trimEnd(), '', ...lines].join('\n'),
    html: filled.html
      ? `${filled.html}${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`
      : '',
  };
}
