import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import { registeredModel } from '~/lib/records.server';

/**
 * Idempotency keys: one document per API credential and `Idempotency-Key`, holding a hash of the
 * request it was first used with and, once that request has been answered, the answer. A unique
 * index makes the first request the only one that runs; a TTL index forgets keys after 24 hours.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const idempotencyKeySchema = new Schema(
  {
    credential: { type: String, required: true },
    key: { type: String, required: true },
    requestHash: { type: String, required: true },
    state: { type: String, enum: ['running', 'done'], required: true },
    // A request still 'running' past this time was cut short (its process died): the key is free.
    runningUntil: { type: Date, default: null },
    status: { type: Number, default: null },
    contentType: { type: String, default: null },
    body: { type: String, default: null },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true, collection: 'idempotency_keys' },
);
idempotencyKeySchema.index({ credential: 1, key: 1 }, { unique: true });
idempotencyKeySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type IdempotencyKeySchema = InferSchemaType<typeof idempotencyKeySchema>;
export type StoredIdempotencyKey = IdempotencyKeySchema & { _id: mongoose.Types.ObjectId };

export const IdempotencyKey = registeredModel('IdempotencyKey', idempotencyKeySchema);

/**
 * Claims the key for a request: 'claimed' when this request is the one to run (a new key, or
 * one whose earlier holder expired or died), otherwise the stored record.
 */
export async function claimIdempotencyKey(
  credential: string,
  key: string,
  requestHash: string,
  runningMs: number,
  now = new Date(),
): Promise<{ claimed: true } | { claimed: false; existing: StoredIdempotencyKey }> {
  const fresh = {
    credential,
    key,
    requestHash,
    state: 'running' as const,
    runningUntil: new Date(now.getTime() + runningMs),
    status: null,
    contentType: null,
    body: null,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await IdempotencyKey.create(fresh);
      return { claimed: true };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    // Taken over when expired (the TTL monitor has not removed it yet), or when the request that
    // held it stopped without an answer.
    const takenOver = await IdempotencyKey.findOneAndUpdate(
      {
        credential,
        key,
        $or: [
          { expiresAt: { $lte: now } },
          { state: 'running', runningUntil: { $lt: now }, requestHash },
        ],
      },
      { $set: fresh },
    ).lean();
    if (takenOver) return { claimed: true };
    const existing = await IdempotencyKey.findOne({ credential, key }).lean<StoredIdempotencyKey>();
    if (existing) return { claimed: false, existing };
  }
  throw new Error('Could not claim the idempotency key');
}

export async function saveIdempotentAnswer(
  credential: string,
  key: string,
  answer: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await IdempotencyKey.updateOne(
    { credential, key, state: 'running' },
    { $set: { state: 'done', runningUntil: null, ...answer } },
  );
}

/** Frees a key whose request failed on our side, so that a retry runs again. */
export async function releaseIdempotencyKey(credential: string, key: string): Promise<void> {
  await IdempotencyKey.deleteOne({ credential, key, state: 'running' });
}
