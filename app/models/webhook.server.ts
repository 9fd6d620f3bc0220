import { randomBytes } from 'node:crypto';
import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookCreateInput,
  type WebhookEventType,
  type WebhookUpdateInput,
} from '~/schemas/integrations';
import {
  findPage,
  recordIds,
  recordsOf,
  registeredModel,
  serializedById,
} from '~/lib/records.server';

/**
 * Webhook endpoints and their deliveries. An endpoint's secret (`whsec_` and 32 random bytes in
 * base64, as the Standard Webhooks specification has it) signs every delivery, so it is kept as
 * it is given; it is shown once, when the endpoint is created. A delivery is one event for one
 * endpoint: its body is fixed when the event happens, its attempts are logged as they are made.
 */
const webhookSchema = new Schema(
  {
    url: { type: String, required: true },
    events: { type: [String], enum: WEBHOOK_EVENT_TYPES, required: true },
    description: { type: String, default: '' },
    active: { type: Boolean, default: true },
    secret: { type: String, required: true, select: false },
    // A shipper account's endpoint: only its own parcels' events. None: the company's.
    accountId: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: true },
);
webhookSchema.index({ active: 1, events: 1 });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const attemptSchema = new Schema(
  {
    at: { type: Date, required: true },
    statusCode: { type: Number, default: null },
    durationMs: { type: Number, required: true },
    // The first 1 KB of the receiver's answer, or why there was none.
    response: { type: String, default: '' },
    error: { type: String, default: null },
  },
  { _id: false },
);

const deliverySchema = new Schema(
  {
    webhookId: { type: Schema.Types.ObjectId, required: true },
    // The Standard Webhooks message id: the same on every attempt and redelivery.
    messageId: { type: String, required: true },
    type: { type: String, enum: WEBHOOK_EVENT_TYPES, required: true },
    payload: { type: String, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, default: 'pending' },
    attempts: { type: [attemptSchema], default: [] },
    jobId: { type: String, default: null },
  },
  { timestamps: true, collection: 'webhook_deliveries' },
);
deliverySchema.index({ webhookId: 1, createdAt: -1 });
// Deliveries are kept for 30 days, for the record.
deliverySchema.index({ createdAt: 1 }, { expireAfterSeconds: 30 * 24 * 3600 });

type WebhookSchema = InferSchemaType<typeof webhookSchema>;
type DeliverySchema = InferSchemaType<typeof deliverySchema>;
type LeanWebhook = WebhookSchema & { _id: mongoose.Types.ObjectId; createdAt: Date };
type LeanDelivery = DeliverySchema & {
  _id: mongoose.Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};

export const Webhook = registeredModel('Webhook', webhookSchema);
export const WebhookDelivery = registeredModel('WebhookDelivery', deliverySchema);

export type SerializedWebhook = {
  id: string;
  _id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
  createdAt: string;
  accountId: string | null;
};

export type SerializedDeliveryAttempt = {
  at: string;
  statusCode: number | null;
  durationMs: number;
  response: string;
  error: string | null;
};

export type SerializedDelivery = {
  id: string;
  _id: string;
  webhookId: string;
  messageId: string;
  type: WebhookEventType;
  status: DeliveryStatus;
  attempts: SerializedDeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
};

function serializeWebhook(doc: LeanWebhook): SerializedWebhook {
  return {
    ...recordIds(doc._id),
    url: doc.url,
    events: doc.events as WebhookEventType[],
    description: doc.description ?? '',
    active: doc.active ?? true,
    createdAt: doc.createdAt.toISOString(),
    accountId: doc.accountId ? String(doc.accountId) : null,
  };
}

function serializeDelivery(doc: LeanDelivery): SerializedDelivery {
  return {
    ...recordIds(doc._id),
    webhookId: String(doc.webhookId),
    messageId: doc.messageId,
    type: doc.type as WebhookEventType,
    status: doc.status as DeliveryStatus,
    attempts: (doc.attempts ?? []).map((a) => ({
      at: a.at.toISOString(),
      statusCode: a.statusCode ?? null,
      durationMs: a.durationMs,
      response: a.response ?? '',
      error: a.error ?? null,
    })),
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new endpoint of the company's, or with `accountId` of that shipper account's. */
export async function createWebhook(
  input: WebhookCreateInput,
  accountId: string | null = null,
): Promise<{ webhook: SerializedWebhook; secret: string }> {
  const secret = newWebhookSecret();
  const doc = await Webhook.create({ ...input, active: true, secret, accountId });
  return { webhook: serializeWebhook(doc.toObject() as LeanWebhook), secret };
}

const webhooks = recordsOf(Webhook, serializeWebhook);

/** The company's endpoints, or one account's. */
export const listWebhooks = (accountId: string | null = null) => webhooks.ownedBy(accountId);

export const getWebhook = webhooks.byId;

export const updateWebhookFields = (id: string, input: WebhookUpdateInput) =>
  webhooks.updateGiven(id, input);

/** Deletes an endpoint; its pending deliveries stop at their next attempt. */
export async function removeWebhook(id: string): Promise<SerializedWebhook | null> {
  return serializedById(
    id,
    (id) => Webhook.findByIdAndDelete(id).lean<LeanWebhook>(),
    serializeWebhook,
  );
}

/** Whether the endpoint is the account's (the company's, when `accountId` is null). */
export async function webhookOwnedBy(id: string, accountId: string | null): Promise<boolean> {
  if (!isObjectId(id)) return false;
  return !!(await Webhook.exists({ _id: id, accountId }));
}

/**
 * Active endpoints that want events of this type about a parcel of `accountId` (null: the
 * company's own) in the given mode: the account's own endpoints, and the company's for live data.
 */
export async function subscribedWebhooks(
  type: WebhookEventType,
  { accountId, livemode }: { accountId: string | null; livemode: boolean },
) {
  const owners = [...(livemode ? [null] : []), ...(accountId ? [accountId] : [])];
  if (!owners.length) return [];
  const docs = await Webhook.find(
    { active: true, events: type, accountId: { $in: owners } },
    { _id: 1 },
  ).lean<LeanWebhook[]>();
  return docs.map((doc) => String(doc._id));
}

/** The endpoint a delivery goes to, with its secret (null when it was deleted). */
export async function webhookForDelivery(id: string) {
  const doc = await Webhook.findById(id).select('+secret').lean<LeanWebhook>();
  return doc ? { ...serializeWebhook(doc), secret: doc.secret } : null;
}

export async function createDelivery(input: {
  webhookId: string;
  messageId: string;
  type: WebhookEventType;
  payload: string;
}): Promise<SerializedDelivery> {
  const doc = await WebhookDelivery.create({ ...input, status: 'pending' });
  return serializeDelivery(doc.toObject() as LeanDelivery);
}

export async function setDeliveryJob(id: string, jobId: string) {
  await WebhookDelivery.updateOne({ _id: id }, { $set: { jobId, status: 'pending' } });
}

export async function getDeliveryRecord(id: string) {
  if (!isObjectId(id)) return null;
  return WebhookDelivery.findById(id).lean<LeanDelivery>();
}

export async function getDelivery(
  webhookId: string,
  id: string,
): Promise<SerializedDelivery | null> {
  if (!isObjectId(webhookId) || !isObjectId(id)) return null;
  const doc = await WebhookDelivery.findOne({ _id: id, webhookId }).lean<LeanDelivery>();
  return doc ? serializeDelivery(doc) : null;
}

export async function listDeliveries(
  webhookId: string,
  { page = 1, limit = 20 }: { page?: number; limit?: number } = {},
) {
  const { items, pagination } = await findPage(
    WebhookDelivery,
    { webhookId },
    { sort: { createdAt: -1, _id: -1 }, page, limit },
    serializeDelivery,
  );
  return { deliveries: items, pagination };
}

/** Logs one attempt and, when it settles the delivery, its outcome. */
export async function recordAttempt(
  id: string,
  attempt: Omit<SerializedDeliveryAttempt, 'at'> & { at: Date },
  status: DeliveryStatus,
) {
  await WebhookDelivery.updateOne({ _id: id }, { $push: { attempts: attempt }, $set: { status } });
}

export async function markDelivery(id: string, status: DeliveryStatus) {
  await WebhookDelivery.updateOne({ _id: id }, { $set: { status } });
}
