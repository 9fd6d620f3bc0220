import { randomBytes } from 'node:crypto';
import { Schema } from 'mongoose';
import { registeredModel } from '~/lib/records.server';

/**
 * Server-side sessions: the cookie carries only the random `_id` of one of these documents.
 * MongoDB removes a session when it expires (TTL index); lookups also check `expires`.
 */
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: {} },
    /** The signed-in user, kept apart from `data` so all of a user's sessions can be ended. */
    userId: { type: String, index: true },
    expires: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
sessionSchema.index({ expires: 1 }, { expireAfterSeconds: 0 });

export const SessionRecord = registeredModel('Session', sessionSchema);

/** Where a session's data keeps the signed-in user's id. */
export const USER_SESSION_KEY = 'userId';

function userIdOf(data: Record<string, unknown>): string | undefined {
  const userId = data[USER_SESSION_KEY];
  return typeof userId === 'string' ? userId : undefined;
}

export async function createSessionRecord(
  data: Record<string, unknown>,
  expires: Date,
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await SessionRecord.create({ _id: id, data, userId: userIdOf(data), expires });
  return id;
}

export async function readSessionRecord(id: string): Promise<Record<string, unknown> | null> {
  const found = await SessionRecord.findOne({ _id: id, expires: { $gt: new Date() } }).lean();
  return (found?.data as Record<string, unknown> | undefined) ?? null;
}

/** Saves a session's data; one that was deleted meanwhile (logout elsewhere) stays deleted. */
export async function updateSessionRecord(
  id: string,
  data: Record<string, unknown>,
  expires: Date,
): Promise<void> {
  await SessionRecord.updateOne({ _id: id }, { $set: { data, userId: userIdOf(data), expires } });
}

export async function deleteSessionRecord(id: string): Promise<void> {
  await SessionRecord.deleteOne({ _id: id });
}

/** Ends every session of a user (password change, disabled account), `except` one if given. */
export async function deleteUserSessions(
  userId: string,
  { except }: { except?: string } = {},
): Promise<number> {
  const result = await SessionRecord.deleteMany(
    except ? { userId, _id: { $ne: except } } : { userId },
  );
  return result.deletedCount;
}
