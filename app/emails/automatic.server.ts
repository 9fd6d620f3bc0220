import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { trackingUrl } from '~/lib/urls.server';
import { failureReasonWords } from '~/schemas/constants';
import { longDateTime, longDay } from '~/utils/delivery-headline';
import {
  fillTemplate,
  NEUTRAL_RECIPIENT_NAME,
  placeholderValues,
  type PlaceholderParcel,
} from './templates.server';

/**
 * The automatic e-mails about a parcel, each composed here from its template and the parcel: a
 * status change (with what happened, for a failed attempt or a delivery), the day before the
 * delivery, a subscriber's update, the recipient's preferences confirmed. Subject, text and HTML
 * are made here; the layout and the schema.org data are added when the e-mail is sent
 * (notification.server.tsx). The services gather the facts and queue what is made here.
 */

export type EmailContent = { subject: string; text: string; html: string };
type Template = { subject: string; text: string; html?: string };

/** A failed delivery attempt, as its e-mail tells it. */
export type FailedAttempt = {
  kind: 'failed';
  reason?: string | null;
  /** The courier's note, said for the reason "other". */
  description?: string | null;
  nextAttemptDate?: string | null;
  timestamp: string;
  timeZone: string;
};

/** A delivery, as its e-mail tells it: when, who received it, where, and the proof's link. */
export type Delivery = {
  kind: 'delivered';
  timestamp: string;
  timeZone: string;
  receivedBy?: string;
  address?: string;
  /** Where it was left: the proof's note, else handed to who received it. */
  note?: string;
  /** The page that opens the photos and signature, when there are any. */
  proofUrl?: string;
};

/** What happened that the status e-mail reports besides its template's text. */
export type WhatHappened = FailedAttempt | Delivery;

/**
 * The e-mail of a status change: the rule's template filled in for the parcel, with what
 * happened after it; a failed attempt's e-mail leads with it, as the tracking page does.
 */
export function statusEmail(
  template: Template,
  parcel: PlaceholderParcel,
  happened: WhatHappened | null,
): EmailContent {
  const filled = templateEmail(template, parcel);
  if (happened?.kind === 'delivered') return withLines(filled, deliveredLines(happened));
  if (happened?.kind !== 'failed') return filled;
  const told = withLines(filled, failedAttemptLines(happened));
  return withLead(told, failedAttemptLead(parcel.trackingNumber, happened));
}

/** An e-mail that is its template filled in for the parcel (the day before the delivery). */
export function templateEmail(template: Template, parcel: PlaceholderParcel): EmailContent {
  return fillTemplate(template, placeholderValues(parcel));
}

/**
 * A subscriber's update: the template of the parcel's status. Anyone may follow a parcel, so a
 * subscriber is greeted as the templates greet a recipient without a name, never by the
 * recipient's.
 */
export function subscriberEmail(template: Template, parcel: PlaceholderParcel): EmailContent {
  return fillTemplate(template, {
    ...placeholderValues(parcel),
    recipientName: NEUTRAL_RECIPIENT_NAME,
  });
}

/** What the recipient is told when their delivery preferences change, and whom to call. */
export function preferencesConfirmationEmail(
  trackingNumber: string,
  preferences: string[],
): EmailContent {
  return {
    subject: `Your delivery preferences for ${trackingNumber} were changed`,
    text: [
      `The delivery preferences for your parcel ${trackingNumber} were changed. From now on:`,
      '',
      ...preferences.map((line) => `- ${line}`),
      '',
      `If you did not make this change, contact us at ${env.COMPANY_PHONE} or ${env.COMPANY_EMAIL}.`,
    ].join('\n'),
    html: '',
  };
}

/**
 * A failed attempt's first words: what happened, when the next attempt is, and where to choose
 * another day, a safe place, a neighbour or the depot.
 */
function failedAttemptLead(trackingNumber: string, attempt: FailedAttempt) {
  const reason = failureReasonWords(attempt.reason);
  const next = attempt.nextAttemptDate ? longDay(attempt.nextAttemptDate) : null;
  const subject = `Delivery attempted: ${reason.charAt(0).toLowerCase()}${reason.slice(1)} — ${
    next ? `we'll try again ${next}` : 'choose what happens next'
  } (${trackingNumber})`;
  const line = [
    `We tried to deliver your parcel ${trackingNumber} on ${longDateTime(attempt.timestamp, attempt.timeZone)}: ${reason}.`,
    next ? `We will try again on ${next}.` : 'We will be in touch about the next try.',
    `Choose another day, a safe place, a neighbour or collection at the depot: ${trackingUrl(trackingNumber)}#manage`,
  ].join(' ');
  return { subject, line };
}

/**
 * What a failed attempt's e-mail adds to its template: what happened (the reason in words, and the
 * courier's note for "other") and what happens next (the next attempt's day, or how to reach us).
 */
function failedAttemptLines(attempt: FailedAttempt): string[] {
  if (!attempt.reason) return [];
  const note = attempt.reason === 'other' && attempt.description ? ` (${attempt.description})` : '';
  const next = attempt.nextAttemptDate
    ? `We will try again on ${longDay(attempt.nextAttemptDate)}.`
    : `Please contact us at ${env.COMPANY_PHONE} or ${env.COMPANY_EMAIL} to arrange a new delivery.`;
  return [
    `What happened: ${failureReasonWords(attempt.reason)}${note}.`,
    `What happens next: ${next}`,
  ];
}

/** What the delivered e-mail adds: when, who received it, where, where it was left, the photos. */
function deliveredLines(delivery: Delivery): string[] {
  const lines = [`Delivered: ${longDateTime(delivery.timestamp, delivery.timeZone)}`];
  if (delivery.receivedBy) lines.push(`Received by: ${delivery.receivedBy}`);
  if (delivery.address) lines.push(`Delivered to: ${delivery.address}`);
  if (delivery.note) lines.push(`Where it was left: ${delivery.note}`);
  if (delivery.proofUrl)
    lines.push(
      `Photos and signature (you will be asked for the postcode of the delivery address): ${delivery.proofUrl}`,
    );
  return lines;
}

/** A filled template under its own subject, its text and HTML opening with `line`. */
function withLead(filled: EmailContent, { subject, line }: { subject: string; line: string }) {
  return {
    subject,
    text: `${line}\n\n${filled.text}`,
    html: filled.html ? `<p><strong>${escapeHtml(line)}</strong></p>${filled.html}` : '',
  };
}

/** Lines after a filled template's text: text lines, and escaped paragraphs in HTML. */
function withLines(filled: EmailContent, lines: string[]): EmailContent {
  if (!lines.length) return filled;
  return {
    ...filled,
    text: [filled.text.trimEnd(), '', ...lines].join('\n'),
    html: filled.html
      ? `${filled.html}${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`
      : '',
  };
}
