import type mongoose from 'mongoose';
import { Schema, type InferSchemaType, type Types } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { StaleRecordError } from '~/lib/errors.server';
import {
  PAYMENT_METHODS,
  RECEIPT_FORMATS,
  RECEIPT_STATUSES,
  RECEIPT_TAX_RATE,
} from '~/schemas/constants';
import {
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_RECEIPT_FORMAT,
  type ReceiptFormat,
  type ReceiptGenerateInput,
  type ReceiptListQuery,
  type ReceiptUpdateInput,
} from '~/schemas/receipt';
import {
  recordDeletion,
  setIfFound,
  syncedList,
  withChange,
  withChangeIf,
  type SyncRequest,
} from '~/lib/changes.server';
import {
  givenFields,
  iso,
  recordIds,
  registeredModel,
  serializedById,
  versionedById,
} from '~/lib/records.server';

const receiptSchema = new Schema(
  {
    receiptNumber: { type: String, required: true, unique: true },
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel', required: true, index: true },
    trackingNumber: { type: String, required: true },
    customerName: { type: String, default: '', trim: true },
    customerEmail: { type: String, default: '', trim: true, lowercase: true },
    amount: { type: Number, required: true, min: 0 },
    service: { type: String, default: 'Standard' },
    date: { type: Date, required: true, default: () => new Date() },
    status: { type: String, enum: RECEIPT_STATUSES, default: 'generated' },
    tax: { type: Number, default: 0, min: 0 },
    subtotal: { type: Number, required: true, min: 0 },
    total: { type: Number, required: true, min: 0 },
    paymentMethod: { type: String, enum: PAYMENT_METHODS, default: DEFAULT_PAYMENT_METHOD },
    format: { type: String, enum: RECEIPT_FORMATS, default: DEFAULT_RECEIPT_FORMAT },
    emailedAt: { type: Date },
    /** Why the last queued e-mail of this receipt could not be sent (cleared once one is). */
    emailError: { type: String },
    /** The change that last wrote it, in the order syncs read (app/lib/changes.server.ts). */
    changeSeq: { type: Number, default: 0 },
  },
  { timestamps: true },
);

receiptSchema.index({ createdAt: -1 });
receiptSchema.index({ status: 1, createdAt: -1 });
receiptSchema.index({ changeSeq: 1, _id: 1 });

export const Receipt = registeredModel('Receipt', receiptSchema);

export type LeanReceipt = InferSchemaType<typeof receiptSchema> & { _id: Types.ObjectId };

/** The JSON form of a receipt used by the API and the dashboard. */
export function serializeReceipt(receipt: LeanReceipt) {
  return {
    ...recordIds(receipt._id),
    receiptNumber: receipt.receiptNumber,
    parcelId: String(receipt.parcelId),
    trackingNumber: receipt.trackingNumber,
    customerName: receipt.customerName ?? '',
    customerEmail: receipt.customerEmail ?? '',
    amount: receipt.amount,
    service: receipt.service ?? 'Standard',
    date: iso(receipt.date)!,
    status: receipt.status ?? 'generated',
    tax: receipt.tax ?? 0,
    subtotal: receipt.subtotal,
    total: receipt.total,
    paymentMethod: receipt.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
    format: (receipt.format ?? DEFAULT_RECEIPT_FORMAT) as ReceiptFormat,
    emailedAt: iso(receipt.emailedAt),
    emailError: receipt.emailError ?? null,
    createdAt: iso(receipt.createdAt),
    updatedAt: iso(receipt.updatedAt),
  };
}
export type SerializedReceipt = ReturnType<typeof serializeReceipt>;

const roundMoney = (value: number) => Math.round(value * 100) / 100;

/** Subtotal, tax at RECEIPT_TAX_RATE and total for an amount, in dollars with two decimals. */
export function receiptAmounts(amount: number) {
  const subtotal = roundMoney(amount);
  const tax = roundMoney(subtotal * RECEIPT_TAX_RATE);
  return { amount: subtotal, subtotal, tax, total: roundMoney(subtotal + tax) };
}

const receiptList = syncedList(Receipt, 'receipt', 'receipts', serializeReceipt, { limit: 20 });

type ReceiptListOptions = Partial<Pick<ReceiptListQuery, 'page' | 'limit' | 'status'>>;

export async function listReceipts(options: ReceiptListOptions = {}) {
  const filter = options.status ? { status: options.status } : {};
  const { items, pagination } = await receiptList.page(filter, { createdAt: -1, _id: -1 }, options);
  return { receipts: items, pagination };
}

/** A page of a sync of the receipts, deleted ones included (see findChanges). */
export async function listReceiptChanges(options: ReceiptListOptions & SyncRequest) {
  const filter = options.status ? { status: options.status } : {};
  const { items, ...rest } = await receiptList.changes(filter, options);
  return { receipts: items, ...rest };
}

export async function getReceipt(id: string): Promise<SerializedReceipt | null> {
  return serializedById(id, (id) => Receipt.findById(id).lean<LeanReceipt>(), serializeReceipt);
}

/** A receipt as getReceipt gives it, and its version: the change number it was last written by. */
export function getReceiptVersioned(id: string) {
  return versionedById(id, (id) => Receipt.findById(id).lean<LeanReceipt>(), serializeReceipt);
}

export async function getNewestReceipt(): Promise<SerializedReceipt | null> {
  const receipt = await Receipt.findOne().sort({ createdAt: -1, _id: -1 }).lean<LeanReceipt>();
  return receipt ? serializeReceipt(receipt) : null;
}

/** The parcel a receipt is for, as the receipt copies it. */
export type ReceiptParcel = {
  _id: mongoose.Types.ObjectId;
  trackingNumber: string;
  sender?: { name?: string | null; email?: string | null } | null;
  cost?: number | null;
  serviceType?: string | null;
};

/**
 * Stores a receipt for a parcel under its number: the customer is the parcel's sender unless
 * given, the amount is the parcel's cost.
 */
export async function insertReceipt({
  receiptNumber,
  parcel,
  overrides,
  now,
}: {
  receiptNumber: string;
  parcel: ReceiptParcel;
  overrides: ReceiptGenerateInput;
  now: Date;
}): Promise<SerializedReceipt> {
  const doc = await withChange((changeSeq) =>
    Receipt.create({
      changeSeq,
      receiptNumber,
      parcelId: parcel._id,
      trackingNumber: parcel.trackingNumber,
      customerName: overrides.customerName ?? parcel.sender?.name ?? '',
      customerEmail: overrides.customerEmail ?? parcel.sender?.email ?? '',
      ...receiptAmounts(parcel.cost ?? 0),
      service: parcel.serviceType ?? 'Standard',
      date: now,
      status: 'generated',
      paymentMethod: overrides.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
      format: overrides.format ?? DEFAULT_RECEIPT_FORMAT,
    }),
  );
  return serializeReceipt(doc.toObject() as LeanReceipt);
}

export async function updateReceiptFields(
  id: string,
  input: ReceiptUpdateInput,
  { version }: { version?: number | null } = {},
): Promise<SerializedReceipt | null> {
  if (!isObjectId(id)) return null;
  const set = givenFields(input);
  const filter = { _id: id, ...(version == null ? {} : { changeSeq: version }) };
  const receipt = await setIfFound(Receipt, filter, set, serializeReceipt, {
    runValidators: true,
  });
  if (!receipt && version != null && (await Receipt.exists({ _id: id })))
    throw new StaleRecordError('receipt');
  return receipt;
}

export async function removeReceipt(id: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  const removed = await withChangeIf(
    () => Receipt.exists({ _id: id }),
    async (changeSeq) => {
      const result = await Receipt.deleteOne({ _id: id });
      if (result.deletedCount !== 1) return false;
      await recordDeletion({ kind: 'receipt', recordId: id, changeSeq });
      return true;
    },
  );
  return removed ?? false;
}

export async function markReceiptEmailed(id: string, at: Date = new Date()) {
  await withChange((changeSeq) =>
    Receipt.updateOne(
      { _id: id },
      { $set: { emailedAt: at, changeSeq }, $unset: { emailError: 1 } },
    ),
  );
}

export async function markReceiptEmailFailed(id: string, error: string) {
  await withChange((changeSeq) =>
    Receipt.updateOne({ _id: id }, { $set: { emailError: error, changeSeq } }),
  );
}
