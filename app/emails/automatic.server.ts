import { env } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { trackingUrl } from '~/lib/urls.server';
import { FAILURE_REASONS } from '~/schemas/constants';
import type { Language } from '~/schemas/languages';
import { translator } from '~/lib/i18n.server';
import {
  describeDeliveryPreferences,
  type PreferenceWords,
} from '~/utils/delivery-preferences-text';
import { longDateTime, longDay } from '~/utils/delivery-headline';
import {
  fillTemplate,
  neutralRecipientName,
  parcelLanguage,
  placeholderValues,
  type PlaceholderParcel,
} from './templates.server';

/**
 * The automatic e-mails about a parcel, each composed here from its template and the parcel: a
 * status change (with what happened, for a failed attempt or a delivery), the day before the
 * delivery, a subscriber's update, the recipient's preferences confirmed. Subject, text and HTML
 * are made here, in the recipient's language (the parcel's `recipient.language`, whoever
 * triggered the e-mail), with the template of that language; the layout and the schema.org data
 * are added when the e-mail is sent (notification.server.tsx), in the same language. The services
 * gather the facts and queue what is made here.
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
  /** Where it was left: the proof's note, else handed to who received it (`handedTo`). */
  note?: string;
  handedTo?: string;
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
  const language = parcelLanguage(parcel);
  if (happened?.kind === 'delivered') return withLines(filled, deliveredLines(happened, language));
  if (happened?.kind !== 'failed') return filled;
  const told = withLines(filled, failedAttemptLines(happened, language));
  return withLead(told, failedAttemptLead(parcel.trackingNumber, happened, language));
}

/** A failed attempt's reason in the recipient's words (an unknown code: the "other" words). */
function reasonWords(reason: string | null | undefined, language: Language): string {
  const code = reason && reason in FAILURE_REASONS ? reason : 'other';
  return translator(language, 'public')(`delivery.reasons.${code}`);
}

/** An e-mail that is its template filled in for the parcel (the day before the delivery). */
export function templateEmail(template: Template, parcel: PlaceholderParcel): EmailContent {
  return fillTemplate(template, placeholderValues(parcel));
}

/**
 * A subscriber's update: the template of the parcel's status. Anyone may follow a parcel, so a
 * subscriber is greeted as the templates greet a recipient without a name, never by the
 * recipient's; in the language they asked in.
 */
export function subscriberEmail(
  template: Template,
  parcel: PlaceholderParcel,
  language: Language = parcelLanguage(parcel),
): EmailContent {
  return fillTemplate(template, {
    ...placeholderValues(parcel, language),
    recipientName: neutralRecipientName(language),
  });
}

/** What the recipient is told when their delivery preferences change, and whom to call. */
export function preferencesConfirmationEmail(
  parcel: PlaceholderParcel,
  preferences: Parameters<typeof describeDeliveryPreferences>[0],
  language: Language = parcelLanguage(parcel),
): EmailContent {
  const t = translator(language);
  const page = translator(language, 'public');
  const words: PreferenceWords = {
    lang: language,
    t: (key, values) => page(`manage.lines.${key}`, values),
    place: (code) => page(`manage.places.${code}`),
  };
  const { trackingNumber } = parcel;
  return {
    subject: t('preferences.subject', { trackingNumber }),
    text: [
      t('preferences.changed', { trackingNumber }),
      '',
      ...describeDeliveryPreferences(preferences, words).map((line) => `- ${line}`),
      '',
      t('preferences.notYou', { phone: env.COMPANY_PHONE, email: env.COMPANY_EMAIL }),
    ].join('\n'),
    html: '',
  };
}

/**
 * A failed attempt's first words: what happened, when the next attempt is, and where to choose
 * another day, a safe place, a neighbour or the depot.
 */
function failedAttemptLead(trackingNumber: string, attempt: FailedAttempt, language: Language) {
  const t = translator(language);
  const reason = reasonWords(attempt.reason, language);
  const next = attempt.nextAttemptDate ? longDay(attempt.nextAttemptDate, language) : null;
  // German capitalises its nouns: only English, Spanish and French lower the reason's first letter.
  const lowered = ['en', 'es', 'fr'].includes(language)
    ? `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`
    : reason;
  const subject = next
    ? t('failed.subjectNext', { reason: lowered, day: next, trackingNumber })
    : t('failed.subjectChoose', { reason: lowered, trackingNumber });
  const line = [
    t('failed.tried', {
      trackingNumber,
      time: longDateTime(attempt.timestamp, attempt.timeZone, language),
      reason,
    }),
    next ? t('failed.tryAgain', { day: next }) : t('failed.inTouch'),
    t('failed.choose', { url: `${trackingUrl(trackingNumber)}#manage` }),
  ].join(' ');
  return { subject, line };
}

/**
 * What a failed attempt's e-mail adds to its template: what happened (the reason in words, and the
 * courier's note for "other") and what happens next (the next attempt's day, or how to reach us).
 */
function failedAttemptLines(attempt: FailedAttempt, language: Language): string[] {
  if (!attempt.reason) return [];
  const t = translator(language);
  const reason = reasonWords(attempt.reason, language);
  const next = attempt.nextAttemptDate
    ? t('failed.tryAgain', { day: longDay(attempt.nextAttemptDate, language) })
    : t('failed.contactUs', { phone: env.COMPANY_PHONE, email: env.COMPANY_EMAIL });
  return [
    attempt.reason === 'other' && attempt.description
      ? t('failed.whatHappenedNote', { reason, note: attempt.description })
      : t('failed.whatHappened', { reason }),
    t('failed.whatNext', { next }),
  ];
}

/** What the delivered e-mail adds: when, who received it, where, where it was left, the photos. */
function deliveredLines(delivery: Delivery, language: Language): string[] {
  const t = translator(language);
  const lines = [
    t('delivered.at', { time: longDateTime(delivery.timestamp, delivery.timeZone, language) }),
  ];
  if (delivery.receivedBy) lines.push(t('delivered.receivedBy', { name: delivery.receivedBy }));
  if (delivery.address) lines.push(t('delivered.to', { address: delivery.address }));
  const note =
    delivery.note ??
    (delivery.handedTo ? t('delivered.handedTo', { name: delivery.handedTo }) : undefined);
  if (note) lines.push(t('delivered.left', { note }));
  if (delivery.proofUrl) lines.push(t('delivered.proof', { url: delivery.proofUrl }));
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
