import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import { getDummyHash, hashPassword, verifyPassword } from '~/services/password.server';

export const USER_ROLES = ['admin', 'staff', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

// viewer reads; staff also runs parcels, events, e-mails and receipts; admin also manages users,
// templates, settings, API keys and webhooks.
const ROLE_RANK: Record<UserRole, number> = { viewer: 0, staff: 1, admin: 2 };

export function hasRole(user: { role: UserRole }, needed: UserRole): boolean {
  return (ROLE_RANK[user.role] ?? -1) >= ROLE_RANK[needed];
}

const userSchema = new Schema(
  {
    // Stored lower-cased, so uniqueness and lookups are case-insensitive.
    username: { type: String, required: true, unique: true, lowercase: true, trim: true },
    name: { type: String, default: '', trim: true },
    email: { type: String, default: '', trim: true, lowercase: true },
    role: { type: String, enum: USER_ROLES, default: 'staff' },
    passwordHash: { type: String, required: true, select: false },
  },
  { timestamps: true },
);

type UserSchema = InferSchemaType<typeof userSchema>;

export const User: Model<UserSchema> =
  (mongoose.models.User as Model<UserSchema>) ?? mongoose.model('User', userSchema);

export type PublicUser = {
  id: string;
  _id: string;
  username: string;
  name: string;
  email: string;
  role: UserRole;
};

export function toPublicUser(user: {
  _id: unknown;
  username: string;
  name?: string | null;
  email?: string | null;
  role?: string | null;
}): PublicUser {
  const id = String(user._id);
  return {
    id,
    _id: id,
    username: user.username,
    name: user.name ?? '',
    email: user.email ?? '',
    role: (user.role as UserRole) ?? 'staff',
  };
}

export async function createUser(input: {
  username: string;
  password: string;
  name?: string;
  email?: string;
  role?: UserRole;
}): Promise<PublicUser> {
  const doc = await User.create({
    username: input.username,
    name: input.name ?? '',
    email: input.email ?? '',
    role: input.role ?? 'staff',
    passwordHash: await hashPassword(input.password),
  });
  return toPublicUser(doc);
}

export async function getUserById(id: string): Promise<PublicUser | null> {
  if (!mongoose.isValidObjectId(id)) return null;
  const user = await User.findById(id).lean();
  return user ? toPublicUser(user) : null;
}

/**
 * Checks a username and password. An unknown username still pays for one hash verification so
 * the answer takes as long as for a wrong password.
 */
export async function verifyLogin(username: string, password: string): Promise<PublicUser | null> {
  const user = await User.findOne({ username: username.trim().toLowerCase() })
    .select('+passwordHash')
    .lean();
  if (!user) {
    await verifyPassword(password, await getDummyHash());
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? toPublicUser(user) : null;
}

export async function countUsers(): Promise<number> {
  return User.estimatedDocumentCount();
}
