import type mongoose from 'mongoose';
import { Schema } from 'mongoose';
import { iso, recordIds, registeredModel } from '~/lib/records.server';

/**
 * The test log: the messages a shipper account's test parcels would have sent their recipients.
 * Test data never reaches a real person; what would have gone is kept here, for the account to
 * read in its portal, for 30 days.
 */
const testMessageSchema = new Schema(
  {
    accountId: { type: Schema.Types.ObjectId, default: null },
    trackingNumber: { type: String, required: true },
    channel: { type: String, enum: ['email', 'sms'], default: 'email' },
    to: { type: String, default: '' },
    subject: { type: String, default: '' },
    text: { type: String, default: '' },
  },
  { timestamps: true, collection: 'test_messages' },
);
testMessageSchema.index({ accountId: 1, createdAt: -1 });
testMessageSchema.index({ createdAt: 1 }, { expireAfterSeconds: 30 * 24 * 3600 });

export const TestMessage = registeredModel('TestMessage', testMessageSchema);

type LeanTestMessage = {
  _id: mongoose.Types.ObjectId;
  trackingNumber: string;
  channel?: string | null;
  to?: string | null;
  subject?: string | null;
  text?: string | null;
  createdAt?: Date | null;
};

const serialize = (doc: LeanTestMessage) => ({
  ...recordIds(doc._id),
  trackingNumber: doc.trackingNumber,
  channel: doc.channel ?? 'email',
  to: doc.to ?? '',
  subject: doc.subject ?? '',
  text: doc.text ?? '',
  createdAt: iso(doc.createdAt),
});
export type SerializedTestMessage = ReturnType<typeof serialize>;

export async function recordTestMessage(input: {
  accountId: string | null;
  trackingNumber: string;
  channel?: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
}): Promise<SerializedTestMessage> {
  const doc = await TestMessage.create(input);
  return serialize(doc.toObject() as LeanTestMessage);
}

/** An account's test log, newest first. */
export async function listTestMessages(
  accountId: string,
  limit = 50,
): Promise<SerializedTestMessage[]> {
  const docs = await TestMessage.find({ accountId })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<LeanTestMessage[]>();
  return docs.map(serialize);
}
