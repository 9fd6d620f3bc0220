import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { iso, recordIds, registeredModel } from '~/lib/records.server';

/**
 * What staff add to an account's monthly statement: adjustments (a credit lowers the total, a
 * charge raises it) and payments recorded against it, each in the currency's minor units.
 */
const entrySchema = new Schema(
  {
    accountId: { type: Schema.Types.ObjectId, required: true },
    month: { type: String, required: true },
    kind: { type: String, enum: ['credit', 'charge', 'payment'], required: true },
    amount: { type: Number, required: true, min: 1 },
    currency: { type: String, required: true },
    // A payment's day (YYYY-MM-DD).
    date: { type: String, default: null },
    note: { type: String, default: '' },
  },
  { timestamps: true, collection: 'statement_entries' },
);
entrySchema.index({ accountId: 1, month: 1, createdAt: 1 });

export const StatementEntry = registeredModel('StatementEntry', entrySchema);

type LeanEntry = InferSchemaType<typeof entrySchema> & { _id: mongoose.Types.ObjectId };

function serialize(doc: LeanEntry) {
  return {
    ...recordIds(doc._id),
    accountId: String(doc.accountId),
    month: doc.month,
    kind: doc.kind,
    amount: doc.amount,
    currency: doc.currency,
    date: doc.date ?? null,
    note: doc.note ?? '',
    createdAt: iso(doc.createdAt),
  };
}
export type SerializedStatementEntry = ReturnType<typeof serialize>;

export async function insertStatementEntry(input: {
  accountId: string;
  month: string;
  kind: 'credit' | 'charge' | 'payment';
  amount: number;
  currency: string;
  date?: string | null;
  note: string;
}): Promise<SerializedStatementEntry> {
  const doc = await StatementEntry.create({
    ...input,
    accountId: new mongoose.Types.ObjectId(input.accountId),
  });
  return serialize(doc.toObject() as LeanEntry);
}

export async function listStatementEntries(accountId: string, month: string) {
  const docs = await StatementEntry.find({
    accountId: new mongoose.Types.ObjectId(accountId),
    month,
  })
    .sort({ createdAt: 1, _id: 1 })
    .lean<LeanEntry[]>();
  return docs.map(serialize);
}
