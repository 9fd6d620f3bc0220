import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { expectedWindow, type WindowSource } from '~/lib/parcel-delivery-data.server';
import { trackingUrl } from '~/lib/urls.server';
import { fillPlaceholders, type PlaceholderValues } from '~/schemas/notification-template';
import { longDay, windowPhrase } from '~/utils/delivery-headline';
import { formatDate } from '~/utils/format';
import { FAILURE_REASONS, type FailureReason } from '~/schemas/constants';

/**
 * The admin-edited notification templates, filled in for a parcel: `{{placeholders}}` in the
 * subject, text and HTML body become the parcel's values (escaped in the HTML body).
 */
export type PlaceholderParcel = WindowSource & {
  trackingNumber: string;
  status?: string | null;
  recipient?: { name?: string | null } | null;
};

/** How the templates greet someone whose name is not known (or not theirs to be told). */
export const NEUTRAL_RECIPIENT_NAME = 'customer';

/** What each placeholder stands for, for this parcel. */
export function placeholderValues(parcel: PlaceholderParcel): PlaceholderValues {
  return {
    trackingNumber: parcel.trackingNumber,
    status: parcel.status ?? 'Pending',
    recipientName: parcel.recipient?.name?.trim() || NEUTRAL_RECIPIENT_NAME,
    estimatedDelivery: parcel.estimatedDelivery
      ? formatDate(parcel.estimatedDelivery)
      : 'to be confirmed',
    trackingUrl: trackingUrl(parcel.trackingNumber),
    companyName: env.COMPANY_NAME,
    // As the tracking page says them: "Friday, 3 July", "between 2 pm and 4 pm" or "by 6 pm".
    deliveryDay: parcel.estimatedDelivery
      ? longDay(new Date(parcel.estimatedDelivery).toISOString().slice(0, 10))
      : 'to be confirmed',
    deliveryWindow: windowPhrase(expectedWindow(parcel), env.COMPANY_TIMEZONE) ?? 'during the day',
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
    ? `We will try again on ${formatDay(attempt.nextAttemptDate)}.`
    : `Please contact us at ${env.COMPANY_PHONE} or ${env.COMPANY_EMAIL} to arrange a new delivery.`;
  return [`What happened: ${words}${note}.`, `What happens next: ${next}`];
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

/** "2030-05-02" as people read it, the calendar day itself (no zone shifts it). */
function formatDay(day: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));
}
