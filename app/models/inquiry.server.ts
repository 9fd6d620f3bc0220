import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import {
  planLabel,
  type ContactMessageInput,
  type QuoteRequestInput,
} from '~/schemas/public-forms';
import { registeredModel } from '~/lib/records.server';

export const INQUIRY_KINDS = ['contact', 'quote'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];
/** The e-mail to support: queued (`pending`), accepted by the mail server, or refused last time. */
export const INQUIRY_EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
/**
 * The acknowledgement e-mailed to the sender: owed and queued (`pending`), sent, refused for good
 * (`failed`), or not sent because that address was acknowledged often enough lately (`skipped`).
 * Inquiries stored before acknowledgements existed have none.
 */
export const ACKNOWLEDGEMENT_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type AcknowledgementStatus = (typeof ACKNOWLEDGEMENT_STATUSES)[number];

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
    acknowledgement: { type: String, enum: ACKNOWLEDGEMENT_STATUSES },
    // The staff inbox: when and by whom it was marked handled (absent: not handled).
    handledAt: { type: Date },
    handledBy: { type: String },
  },
  { timestamps: true },
);
inquirySchema.index({ kind: 1, createdAt: -1, _id: -1 });
inquirySchema.index({ emailStatus: 1 });

type InquirySchema = InferSchemaType<typeof inquirySchema>;

export const Inquiry = registeredModel('Inquiry', inquirySchema);

export type StoredInquiry = InquirySchema & { _id: mongoose.Types.ObjectId; createdAt: Date };

/** Whether the sender is to be acknowledged (else it is recorded as skipped). */
type Acknowledge = { acknowledge?: boolean };
const acknowledgement = ({
  acknowledge,
}: Acknowledge): { acknowledgement?: AcknowledgementStatus } =>
  acknowledge === undefined ? {} : { acknowledgement: acknowledge ? 'pending' : 'skipped' };

export async function createContactMessage(
  input: ContactMessageInput & { clientAddress?: string } & Acknowledge,
) {
  const doc = await Inquiry.create({
    ...acknowledgement(input),
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

export async function createQuoteRequest(
  input: QuoteRequestInput & { clientAddress?: string } & Acknowledge,
) {
  const doc = await Inquiry.create({
    ...acknowledgement(input),
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

export async function getInquiry(id: string): Promise<StoredInquiry | null> {
  return Inquiry.findById(id).lean<StoredInquiry>();
}

/** The ids of inquiries whose e-mail to support was never attempted. */
export async function listInquiriesAwaitingEmail(): Promise<string[]> {
  const docs = await Inquiry.find({ emailStatus: 'pending' }, { _id: 1 }).lean<
    Array<{ _id: unknown }>
  >();
  return docs.map((doc) => String(doc._id));
}

/** Records how the last attempt at the e-mail to support went. */
export async function recordInquiryEmail(
  id: string,
  outcome: { status: 'sent' } | { status: 'failed'; error: string },
) {
  await Inquiry.updateOne(
    { _id: id },
    outcome.status === 'sent'
      ? { $set: { emailStatus: 'sent' }, $unset: { emailError: 1 } }
      : { $set: { emailStatus: 'failed', emailError: outcome.error } },
  );
}

/** The ids of inquiries whose sender is owed an acknowledgement not sent yet. */
export async function listInquiriesAwaitingAcknowledgement(): Promise<string[]> {
  const docs = await Inquiry.find({ acknowledgement: 'pending' }, { _id: 1 }).lean<
    Array<{ _id: unknown }>
  >();
  return docs.map((doc) => String(doc._id));
}

/** Records the acknowledgement's end (sent, or refused for good); false if it was not owed. */
export async function recordAcknowledgement(id: string, status: 'sent' | 'failed') {
  const result = await Inquiry.updateOne(
    { _id: id, acknowledgement: 'pending' },
    { $set: { acknowledgement: status } },
  );
  return result.modifiedCount === 1;
}
