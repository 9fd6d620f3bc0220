import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import {
  PUBLIC_FORM_RATE_LIMIT,
  QUOTE_PLANS,
  type ContactMessageInput,
  type QuoteRequestInput,
} from '~/schemas/public-forms';
import { env } from '~/lib/env.server';
import { emailLayout, escapeHtml, sendMail, textToHtml } from '~/services/mailer.server';
import { RateLimit } from '~/lib/rate-limit.server';

/** Accepted submissions per client address, one counter per form. */
export const contactLimiter = new RateLimit(
  'contact',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
);
export const quoteLimiter = new RateLimit(
  'quote',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
);

export const INQUIRY_KINDS = ['contact', 'quote'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];
export const INQUIRY_EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/** Messages from the contact form and quote / sales requests, in one collection told apart by `kind`. */
const inquirySchema = new Schema(
  {
    kind: { type: String, enum: INQUIRY_KINDS, required: true, index: true },
    name: { type: String, required: true, trim: true },
    firstName: { type: String, trim: true },
    lastName: { type: String, trim: true },
    email: { type: String, required: true, trim: true, lowercase: true },
    phone: { type: String, trim: true },
    company: { type: String, trim: true },
    subject: { type: String, required: true, trim: true },
    message: { type: String, default: '' },
    plan: { type: String },
    shipmentsPerMonth: { type: String },
    origin: { type: String, trim: true },
    destination: { type: String, trim: true },
    clientAddress: { type: String },
    emailStatus: { type: String, enum: INQUIRY_EMAIL_STATUSES, default: 'pending' },
    emailError: { type: String },
    // The staff inbox: when and by whom it was marked handled (absent: not handled).
    handledAt: { type: Date },
    handledBy: { type: String },
  },
  { timestamps: true },
);
inquirySchema.index({ kind: 1, createdAt: -1, _id: -1 });

type InquirySchema = InferSchemaType<typeof inquirySchema>;

export const Inquiry: Model<InquirySchema> =
  (mongoose.models.Inquiry as Model<InquirySchema>) ?? mongoose.model('Inquiry', inquirySchema);

export type StoredInquiry = InquirySchema & { _id: mongoose.Types.ObjectId; createdAt: Date };

export async function createContactMessage(
  input: ContactMessageInput & { clientAddress?: string },
) {
  const doc = await Inquiry.create({
    kind: 'contact',
    name: `${input.firstName} ${input.lastName}`,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    subject: input.subject,
    message: input.message,
    clientAddress: input.clientAddress,
  });
  return doc.toObject() as StoredInquiry;
}

export function planLabel(plan: string | null | undefined) {
  return QUOTE_PLANS.find((p) => p.value === plan)?.label ?? 'Not sure yet';
}

export async function createQuoteRequest(input: QuoteRequestInput & { clientAddress?: string }) {
  const doc = await Inquiry.create({
    kind: 'quote',
    name: input.name,
    email: input.email,
    phone: input.phone,
    company: input.company,
    subject: `Quote request: ${planLabel(input.plan)}`,
    message: input.message ?? '',
    plan: input.plan,
    shipmentsPerMonth: input.shipmentsPerMonth,
    origin: input.origin,
    destination: input.destination,
    clientAddress: input.clientAddress,
  });
  return doc.toObject() as StoredInquiry;
}

export async function listInquiries({
  kind,
  limit = 50,
}: { kind?: InquiryKind; limit?: number } = {}) {
  return Inquiry.find(kind ? { kind } : {})
    .sort({ createdAt: -1 })
    .limit(Math.min(Math.max(limit, 1), 100))
    .lean<StoredInquiry[]>();
}

async function recordEmailResult({
  id,
  status,
  error,
}: {
  id: mongoose.Types.ObjectId;
  status: 'sent' | 'failed';
  error?: string;
}) {
  await Inquiry.updateOne(
    { _id: id },
    status === 'sent'
      ? { $set: { emailStatus: status }, $unset: { emailError: 1 } }
      : { $set: { emailStatus: status, emailError: error } },
  );
}

function inquiryRows(inquiry: StoredInquiry): Array<[string, string | null | undefined]> {
  if (inquiry.kind === 'quote') {
    return [
      ['Name', inquiry.name],
      ['Email', inquiry.email],
      ['Phone', inquiry.phone],
      ['Company', inquiry.company],
      ['Plan', planLabel(inquiry.plan)],
      ['Shipments per month', inquiry.shipmentsPerMonth],
      ['Origin', inquiry.origin],
      ['Destination', inquiry.destination],
    ];
  }
  return [
    ['Name', inquiry.name],
    ['Email', inquiry.email],
    ['Phone', inquiry.phone],
    ['Subject', inquiry.subject],
  ];
}

/** The message the support team receives for one inquiry; everything the visitor typed is escaped. */
export function inquiryEmail(inquiry: StoredInquiry) {
  const heading =
    inquiry.kind === 'quote'
      ? `New quote request from ${inquiry.name}`
      : `New contact message from ${inquiry.name}`;
  const subject =
    inquiry.kind === 'quote'
      ? `[Quote] ${inquiry.subject} from ${inquiry.name}`
      : `[Contact] ${inquiry.subject}`;
  const rows = inquiryRows(inquiry).filter(([, value]) => value);
  const text = [
    heading,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    inquiry.message ? `Message:\n${inquiry.message}` : 'No message.',
    '',
    `Received ${inquiry.createdAt.toISOString()} (reference ${String(inquiry._id)}).`,
  ].join('\n');
  const table = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#6b7280;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0">${escapeHtml(value ?? '')}</td></tr>`,
    )
    .join('');
  const body = `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(heading)}</h1>
<table role="presentation" cellpadding="0" cellspacing="0">${table}</table>
${inquiry.message ? `<h2 style="font-size:15px;margin:20px 0 8px">Message</h2>${textToHtml(inquiry.message)}` : ''}
<p style="color:#6b7280;font-size:12px;margin-top:20px">Received ${escapeHtml(inquiry.createdAt.toISOString())} · reference ${escapeHtml(String(inquiry._id))}. Reply to this e-mail to answer the visitor.</p>`;
  return {
    to: env.COMPANY_EMAIL,
    replyTo: inquiry.email,
    subject,
    text,
    html: emailLayout(heading, body),
  };
}

/**
 * E-mails the support address about a stored inquiry. A mail failure is recorded on the inquiry and
 * logged, never thrown: the visitor's submission is already safe in the database.
 */
export async function notifySupportOfInquiry(inquiry: StoredInquiry): Promise<boolean> {
  try {
    await sendMail(inquiryEmail(inquiry));
    await recordEmailResult({ id: inquiry._id, status: 'sent' });
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.warn(
      `Could not e-mail ${inquiry.kind} inquiry ${String(inquiry._id)} to support: ${message}`,
    );
    await recordEmailResult({
      id: inquiry._id,
      status: 'failed',
      error: message.slice(0, 500),
    }).catch(() => {});
    return false;
  }
}
