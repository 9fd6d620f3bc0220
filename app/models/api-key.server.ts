import { createHash, randomBytes } from 'node:crypto';
import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { API_KEY_SCOPES, type ApiKeyCreateInput, type ApiKeyScope } from '~/schemas/integrations';
import { iso, recordIds, recordsOf, registeredModel, serializedById } from '~/lib/records.server';

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
    // Requests made with a company key act as this user (the admin who created it); an account's
    // key records who made it, and acts for the account.
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    // An account's key (`sk_live_…`, `sk_test_…`): it acts for the account, on its live or test
    // data. A company key has neither.
    accountId: { type: Schema.Types.ObjectId, default: null },
    livemode: { type: Boolean, default: true },
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
  /** The account the key acts for (null for a company key), and whether on live data. */
  accountId: string | null;
  livemode: boolean;
};

function serialize(doc: LeanApiKey): SerializedApiKey {
  return {
    ...recordIds(doc._id),
    name: doc.name,
    scopes: doc.scopes as ApiKeyScope[],
    prefix: doc.prefix,
    createdAt: doc.createdAt.toISOString(),
    lastUsedAt: iso(doc.lastUsedAt),
    accountId: doc.accountId ? String(doc.accountId) : null,
    livemode: doc.livemode !== false,
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
  account?: { accountId: string; livemode: boolean },
): Promise<{ apiKey: SerializedApiKey; key: string }> {
  const mode = account ? (account.livemode ? 'live_' : 'test_') : '';
  const key = `${API_KEY_PREFIX}${mode}${randomBytes(32).toString('base64url')}`;
  const doc = await ApiKey.create({
    name: input.name,
    scopes: input.scopes,
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH + mode.length),
    keyHash: hashKey(key),
    userId,
    ...(account ? { accountId: account.accountId, livemode: account.livemode } : {}),
  });
  return { apiKey: serialize(doc.toObject() as LeanApiKey), key };
}

const apiKeys = recordsOf(ApiKey, serialize);

/** The company's keys, or one account's. */
export const listApiKeys = (accountId: string | null = null) => apiKeys.ownedBy(accountId);

export const getApiKey = apiKeys.byId;

/**
 * Revokes (deletes) a key of the company's (or, with `accountId`, of that account's); the revoked
 * key's record, or null if there was none.
 */
export async function removeApiKey(
  id: string,
  accountId: string | null = null,
): Promise<SerializedApiKey | null> {
  return serializedById(
    id,
    (id) => ApiKey.findOneAndDelete({ _id: id, accountId }).lean<LeanApiKey>(),
    serialize,
  );
}

export type ApiKeyCredential = {
  id: string;
  userId: string;
  scopes: ApiKeyScope[];
  prefix: string;
  name: string;
  account: { accountId: string; livemode: boolean } | null;
};

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
  return {
    id: String(doc._id),
    userId: String(doc.userId),
    scopes: doc.scopes as ApiKeyScope[],
    prefix: doc.prefix,
    name: doc.name,
    account: doc.accountId
      ? { accountId: String(doc.accountId), livemode: doc.livemode !== false }
      : null,
  };
}
