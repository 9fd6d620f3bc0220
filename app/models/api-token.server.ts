import { createHash, randomBytes } from 'node:crypto';
import { Schema } from 'mongoose';
import { registeredModel } from '~/lib/records.server';

export const API_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const apiTokenSchema = new Schema(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true, index: true },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true },
);
// MongoDB removes expired tokens itself; lookups also check expiresAt.
apiTokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const ApiToken = registeredModel('ApiToken', apiTokenSchema);

function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues a random token; only its hash is stored. */
export async function issueApiToken(userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + API_TOKEN_TTL_MS);
  await ApiToken.create({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt };
}

export async function findUserIdByToken(token: string): Promise<string | null> {
  const found = await ApiToken.findOne({
    tokenHash: hashToken(token),
    expiresAt: { $gt: new Date() },
  }).lean();
  return found ? String(found.userId) : null;
}

/** Ends every API token of a user (disabled, or given a new password), `except` one if given. */
export async function deleteUserTokens(
  userId: string,
  { except }: { except?: string } = {},
): Promise<void> {
  await ApiToken.deleteMany(
    except ? { userId, tokenHash: { $ne: hashToken(except) } } : { userId },
  );
}

export async function revokeApiToken(token: string): Promise<void> {
  await ApiToken.deleteOne({ tokenHash: hashToken(token) });
}
