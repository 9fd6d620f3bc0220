import { createHash, randomBytes } from 'node:crypto';
import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { API_KEY_SCOPES, type ApiKeyCreateInput, type ApiKeyScope } from '~/schemas/integrations';
import { iso, recordIds, registeredModel, serializedById } from '~/lib/records.server';

/**
 * Long-lived API keys for integrators. A key is `sk_` and 43 random characters; only its SHA-256
 * is stored (a key has 256 random bits, so a fast hash is enough: nothing to guess), with the
 * first characters kept in clear so people can tell their keys apart. A key does not expire; it
 * works until it is revoked, which deletes it.
 */
export const API_KEY_PREFIX = 'sk_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
// lastUsedAt is written at most this often per key, so a busy key costs no write per request.
const LAST_USED_PRECISION_MS = 60_000;

const apiKeySchema = new Schema(
  {
    name: { type: String, required: true, trim: true },
    scopes: { type: [String], enum: API_KEY_SCOPES, required: true },
    prefix: { type: String, required: true },
    keyHash: { type: String, required: true, unique: true },
    // Requests made with the key act as this user (the admin who created it).
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    lastUsedAt: { type: Date, default: null },
  },
  { timestamps: true },
);

type ApiKeySchema = InferSchemaType<typeof apiKeySchema>;
type LeanApiKey = ApiKeySchema & { _id: mongoose.Types.ObjectId; createdAt: Date };

export const ApiKey = registeredModel('ApiKey', apiKeySchema);

export type SerializedApiKey = {
  id: string;
  _id: string;
  name: string;
  scopes: ApiKeyScope[];
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
};

function serialize(doc: LeanApiKey): SerializedApiKey {
  return {
    ...recordIds(doc._id),
    name: doc.name,
    scopes: doc.scopes as ApiKeyScope[],
    prefix: doc.prefix,
    createdAt: doc.createdAt.toISOString(),
    lastUsedAt: iso(doc.lastUsedAt),
  };
}

function hashKey(key: string) {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** Creates a key; the key itself is in the answer and nowhere else. */
export async function createApiKey(
  input: ApiKeyCreateInput,
  userId: string,
): Promise<{ apiKey: SerializedApiKey; key: string }> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const doc = await ApiKey.create({
    name: input.name,
    scopes: input.scopes,
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
    keyHash: hashKey(key),
    userId,
  });
  return { apiKey: serialize(doc.toObject() as LeanApiKey), key };
}

export async function listApiKeys(): Promise<SerializedApiKey[]> {
  const docs = await ApiKey.find().sort({ createdAt: -1, _id: -1 }).lean<LeanApiKey[]>();
  return docs.map(serialize);
}

export async function getApiKey(id: string): Promise<SerializedApiKey | null> {
  return serializedById(id, (id) => ApiKey.findById(id).lean<LeanApiKey>(), serialize);
}

/** Revokes (deletes) a key; the revoked key's record, or null if there was none. */
export async function removeApiKey(id: string): Promise<SerializedApiKey | null> {
  return serializedById(id, (id) => ApiKey.findByIdAndDelete(id).lean<LeanApiKey>(), serialize);
}

export type ApiKeyCredential = { id: string; userId: string; scopes: ApiKeyScope[] };

/** The key's record when the key is valid, noting that it was used. */
export async function authenticateApiKey(
  key: string,
  now = new Date(),
): Promise<ApiKeyCredential | null> {
  const doc = await ApiKey.findOne({ keyHash: hashKey(key) }).lean<LeanApiKey>();
  if (!doc) return null;
  const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  if (!doc.lastUsedAt || doc.lastUsedAt < stale) {
    await ApiKey.updateOne(
      { _id: doc._id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: stale } }] },
      { $set: { lastUsedAt: now } },
    );
  }
  return { id: String(doc._id), userId: String(doc.userId), scopes: doc.scopes as ApiKeyScope[] };
}
