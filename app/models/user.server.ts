import { randomBytes } from 'node:crypto';
import { Schema } from 'mongoose';
import { isDuplicateKey, isObjectId } from '~/lib/db.server';
import {
  hasRole,
  USER_ROLES,
  type UserCreateInput,
  type UserRole,
  type UserUpdateInput,
} from '~/schemas/user';
import { getDummyHash, hashPassword, verifyPassword } from '~/lib/password.server';
import { ConflictError } from '~/lib/errors.server';
import type { AccountScope } from '~/lib/tenancy.server';
import { SHIPPER_ROLE, type AnyRole } from '~/schemas/roles';
import { iso, recordIds, registeredModel } from '~/lib/records.server';

export { hasRole, USER_ROLES, type UserRole };

const userSchema = new Schema(
  {
    // Stored lower-cased, so uniqueness and lookups are case-insensitive.
    username: { type: String, required: true, unique: true, lowercase: true, trim: true },
    name: { type: String, default: '', trim: true },
    email: { type: String, default: '', trim: true, lowercase: true },
    role: { type: String, enum: [...USER_ROLES, SHIPPER_ROLE], default: 'staff' },
    passwordHash: { type: String, required: true, select: false },
    // A disabled user cannot sign in; disabling also ends their sessions and API tokens.
    disabled: { type: Boolean, default: false },
    // Set with a temporary password: the user must choose their own at the next sign-in.
    mustChangePassword: { type: Boolean, default: false },
    // A shipper: the account they act for, as its admin or a member.
    accountId: { type: Schema.Types.ObjectId, default: null },
    accountRole: { type: String, enum: ['admin', 'member', null], default: null },
    // The one link that may set the password now (an invitation or a reset), until it expires.
    accessNonce: { type: String, default: null, select: false },
    accessExpires: { type: Date, default: null },
  },
  { timestamps: true },
);

export const User = registeredModel('User', userSchema);

export type PublicUser = {
  id: string;
  _id: string;
  username: string;
  name: string;
  email: string;
  role: AnyRole;
  disabled: boolean;
  mustChangePassword: boolean;
  createdAt: string | null;
  /** The shipper account a shipper (or an account's API key) acts for; none for staff. */
  account?: AccountScope | null;
  /** A shipper: the account's admin (invites users, makes keys) or a member. */
  accountRole?: 'admin' | 'member' | null;
};

export function toPublicUser(user: {
  _id: unknown;
  username: string;
  name?: string | null;
  email?: string | null;
  role?: string | null;
  disabled?: boolean | null;
  mustChangePassword?: boolean | null;
  createdAt?: Date | null;
  accountId?: unknown;
  accountRole?: string | null;
}): PublicUser {
  return {
    ...recordIds(user._id),
    username: user.username,
    name: user.name ?? '',
    email: user.email ?? '',
    role: (user.role as AnyRole) ?? 'staff',
    disabled: !!user.disabled,
    mustChangePassword: !!user.mustChangePassword,
    createdAt: iso(user.createdAt),
    ...(user.accountId
      ? {
          account: { accountId: String(user.accountId), livemode: true },
          accountRole: (user.accountRole as 'admin' | 'member' | null) ?? 'member',
        }
      : {}),
  };
}

export async function createUser(input: {
  username: string;
  password: string;
  name?: string;
  email?: string;
  role?: UserRole;
  /** A temporary password: the user must change it at the first sign-in. */
  mustChangePassword?: boolean;
}): Promise<PublicUser> {
  const doc = await User.create({
    username: input.username,
    name: input.name ?? '',
    email: input.email ?? '',
    role: input.role ?? 'staff',
    passwordHash: await hashPassword(input.password),
    mustChangePassword: input.mustChangePassword ?? false,
  });
  return toPublicUser(doc);
}

/** The signed-in user behind a session or token: an enabled user, else null. */
export async function getUserById(id: string): Promise<PublicUser | null> {
  if (!isObjectId(id)) return null;
  const user = await User.findOne({ _id: id, disabled: { $ne: true } }).lean();
  return user ? toPublicUser(user) : null;
}

/** Any user, enabled or not (the admin screens). */
export async function findUserById(id: string): Promise<PublicUser | null> {
  if (!isObjectId(id)) return null;
  const user = await User.findById(id).lean();
  return user ? toPublicUser(user) : null;
}

/** The staff's users (a shipper account's are listed with their account). */
export async function listUsers(): Promise<PublicUser[]> {
  const users = await User.find({ accountId: null }).sort({ username: 1 }).lean();
  return users.map(toPublicUser);
}

/** A random password for a new user or a reset, to be changed at the next sign-in. */
export function temporaryPassword(): string {
  return randomBytes(12).toString('base64url');
}

/** A taken username, or the last active admin demoted or disabled (API: 409). */
export class UserConflictError extends ConflictError {}

export const LAST_ADMIN_MESSAGE = 'The last active admin cannot be disabled or lose the admin role';

/** Refuses a change that would leave no enabled admin. */
async function keepAnAdmin(id: string) {
  const others = await User.countDocuments({
    _id: { $ne: id },
    role: 'admin',
    disabled: { $ne: true },
  });
  if (others === 0) throw new UserConflictError(LAST_ADMIN_MESSAGE);
}

/**
 * Adds a user. Without a password a temporary one is made, returned once and never stored in the
 * clear; the user must change it at the first sign-in. A taken username is a UserConflictError.
 */
export async function insertUser(
  input: UserCreateInput,
): Promise<{ user: PublicUser; temporaryPassword?: string }> {
  const temporary = input.password ? undefined : temporaryPassword();
  try {
    const doc = await User.create({
      username: input.username,
      name: input.name,
      email: input.email,
      role: input.role,
      passwordHash: await hashPassword(input.password ?? temporary!),
      mustChangePassword: !!temporary,
    });
    return { user: toPublicUser(doc), ...(temporary ? { temporaryPassword: temporary } : {}) };
  } catch (error) {
    if (isDuplicateKey(error))
      throw new UserConflictError(`The username ${input.username} is taken`);
    throw error;
  }
}

/** Changes name, e-mail, role or password; the last active admin keeps the admin role. */
export async function updateUserFields(
  id: string,
  input: UserUpdateInput,
): Promise<PublicUser | null> {
  const current = await findUserById(id);
  if (!current) return null;
  if (current.role === 'admin' && !current.disabled && input.role && input.role !== 'admin')
    await keepAnAdmin(id);
  const set: Record<string, unknown> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.email !== undefined) set.email = input.email;
  if (input.role !== undefined) set.role = input.role;
  if (input.password !== undefined) {
    set.passwordHash = await hashPassword(input.password);
    set.mustChangePassword = false;
  }
  const doc = await User.findByIdAndUpdate(id, { $set: set }, { returnDocument: 'after' }).lean();
  return doc ? toPublicUser(doc) : null;
}

export const SELF_DISABLE_MESSAGE =
  'You cannot disable your own account: another admin can, if it must be done';

/**
 * Disables or enables a user. The last active admin cannot be disabled, and no one can disable
 * themself (`by`, the admin asking), which would end the very session or token asking.
 */
export async function storeUserDisabled(
  id: string,
  disabled: boolean,
  { by }: { by: string },
): Promise<PublicUser | null> {
  const current = await findUserById(id);
  if (!current) return null;
  if (disabled && id === by) throw new UserConflictError(SELF_DISABLE_MESSAGE);
  if (disabled && current.role === 'admin' && !current.disabled) await keepAnAdmin(id);
  const doc = await User.findByIdAndUpdate(
    id,
    { $set: { disabled } },
    { returnDocument: 'after' },
  ).lean();
  return doc ? toPublicUser(doc) : null;
}

/** An admin's reset: a new temporary password, returned once, to be changed at the next sign-in. */
export async function storeTemporaryPassword(id: string): Promise<string | null> {
  const password = temporaryPassword();
  const result = await User.updateOne(
    { _id: id },
    { $set: { passwordHash: await hashPassword(password), mustChangePassword: true } },
  );
  return result.matchedCount ? password : null;
}

/** A user's own change: checks the current password first. False when it is wrong. */
export async function changeOwnPassword(
  id: string,
  currentPassword: string,
  newPassword: string,
): Promise<boolean> {
  const user = await User.findById(id).select('+passwordHash').lean();
  if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) return false;
  await User.updateOne(
    { _id: id },
    { $set: { passwordHash: await hashPassword(newPassword), mustChangePassword: false } },
  );
  return true;
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
  const valid = await verifyPassword(password, user.passwordHash);
  // A disabled user is told the same as a wrong password.
  return valid && !user.disabled ? toPublicUser(user) : null;
}

/** A shipper account's users, by name. */
export async function listAccountUsers(accountId: string): Promise<PublicUser[]> {
  const users = await User.find({ accountId }).sort({ name: 1, username: 1 }).lean();
  return users.map(toPublicUser);
}

/** Whether the user is one of the account's (another account's, or staff, is not). */
export async function accountUserOwnedBy(id: string, accountId: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  return !!(await User.exists({ _id: id, accountId }));
}

/** Whether anyone (staff or shipper) signs in with this e-mail address or has it. */
export async function emailInUse(email: string): Promise<boolean> {
  const address = email.trim().toLowerCase();
  return !!(await User.exists({ $or: [{ username: address }, { email: address }] }));
}

/**
 * A shipper of an account, who signs in with their e-mail address once they have chosen a
 * password through the link `accessNonce` opens (an unusable random one until then).
 */
export async function insertShipperUser(input: {
  accountId: string;
  accountRole: 'admin' | 'member';
  name: string;
  email: string;
  accessNonce: string;
  accessExpires: Date;
}): Promise<PublicUser> {
  const email = input.email.trim().toLowerCase();
  try {
    const doc = await User.create({
      ...input,
      username: email,
      email,
      role: SHIPPER_ROLE,
      passwordHash: await hashPassword(temporaryPassword()),
    });
    return toPublicUser(doc);
  } catch (error) {
    if (isDuplicateKey(error)) throw new UserConflictError(`${email} is already in use`);
    throw error;
  }
}

/** The user a sign-in e-mail address names, if any. */
export async function findUserByEmail(email: string): Promise<PublicUser | null> {
  const user = await User.findOne({ username: email.trim().toLowerCase() }).lean();
  return user ? toPublicUser(user) : null;
}

/** Opens a new access link for the user (an invitation or a reset); earlier ones stop working. */
export async function setAccessNonce(id: string, nonce: string, expires: Date): Promise<boolean> {
  const result = await User.updateOne(
    { _id: id },
    { $set: { accessNonce: nonce, accessExpires: expires } },
  );
  return result.matchedCount > 0;
}

/** The access link the user may use now, if any: its nonce and when it ends. */
export async function getAccess(id: string) {
  if (!isObjectId(id)) return null;
  const user = await User.findById(id).select('+accessNonce').lean();
  return user
    ? {
        nonce: user.accessNonce ?? null,
        expires: user.accessExpires ?? null,
        user: toPublicUser(user),
      }
    : null;
}

/** Sets the password through the link `nonce` opened, once: false when it was used meanwhile. */
export async function consumeAccess(id: string, nonce: string, password: string): Promise<boolean> {
  const result = await User.updateOne(
    { _id: id, accessNonce: nonce },
    {
      $set: { passwordHash: await hashPassword(password), mustChangePassword: false },
      $unset: { accessNonce: 1, accessExpires: 1 },
    },
  );
  return result.modifiedCount > 0;
}

/** Every user of an account (a suspension): their ids, to end their sessions. */
export async function accountUserIds(accountId: string): Promise<string[]> {
  const users = await User.find({ accountId }, { _id: 1 }).lean();
  return users.map((u) => String(u._id));
}

export async function countUsers(): Promise<number> {
  return User.estimatedDocumentCount();
}
