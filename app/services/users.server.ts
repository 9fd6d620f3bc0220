import { deleteUserTokens } from '~/models/api-token.server';
import { deleteUserSessions } from '~/models/session.server';
import {
  changeOwnPassword,
  findUserById,
  insertUser,
  storeTemporaryPassword,
  storeUserDisabled,
  updateUserFields,
  type PublicUser,
} from '~/models/user.server';
import type { UserCreateInput, UserUpdateInput } from '~/schemas/user';
import { audit, auditedUpdate, auditRecord, type Actor } from './audit.server';

/**
 * An admin's changes to staff accounts (the Users pages and the API), each audited. A taken
 * username or a change that would leave no active admin is a UserConflictError.
 */

/** Adds a user; without a password the answer carries a temporary one, shown once. */
export async function addUser(
  input: UserCreateInput,
  actor?: Actor,
): Promise<{ user: PublicUser; temporaryPassword?: string }> {
  const created = await insertUser(input);
  await auditRecord(actor, 'create', 'user', {
    label: created.user.username,
    after: created.user,
  });
  return created;
}

/** The credential a change was made with, kept when the user's others end. */
export type KeptCredential = { sessionId?: string; token?: string };

/**
 * Ends every staff session and login token of a user but `keep`. API keys are separate: they are
 * revoked on their own, under Settings.
 */
export async function endCredentials(userId: string, keep: KeptCredential = {}) {
  await deleteUserSessions(userId, { except: keep.sessionId });
  await deleteUserTokens(userId, { except: keep.token });
}

/** The audit entry of a change to a user's password or sessions: what happened, never a secret. */
function auditCredentials(
  actor: Actor | undefined,
  user: { id: string; username?: string },
  after: Record<string, string>,
) {
  return audit(actor, {
    action: 'update',
    entity: 'user',
    entityId: user.id,
    label: user.username,
    before: {},
    after,
  });
}

/**
 * Changes name, e-mail, role or password; the last active admin keeps the admin role. A new
 * password ends every session and login token of the user.
 */
export async function updateUser(
  id: string,
  input: UserUpdateInput,
  actor?: Actor,
): Promise<PublicUser | null> {
  const before = await findUserById(id);
  const user = await updateUserFields(id, input);
  if (!user) return null;
  if (input.password !== undefined) await endCredentials(id);
  // The audit entry says the password was set, never what it is.
  const after = input.password === undefined ? user : { ...user, password: 'set by an admin' };
  await auditRecord(actor, 'update', 'user', { label: user.username, before, after });
  return user;
}

/**
 * Disables or enables a user. Disabling ends every session and API token of theirs at once; the
 * last active admin cannot be disabled, and no admin can disable their own account.
 */
export async function setUserDisabled(
  id: string,
  disabled: boolean,
  actor: Actor,
): Promise<PublicUser | null> {
  return auditedUpdate(actor, 'user', (user) => user.username, {
    read: () => findUserById(id),
    write: async () => {
      const user = await storeUserDisabled(id, disabled, { by: actor.user.id });
      if (user && disabled) await endCredentials(id);
      return user;
    },
  });
}

/**
 * An admin's reset: a new temporary password, returned once; every session and login token of
 * the user ends. Null for an unknown user.
 */
export async function resetUserPassword(id: string, actor?: Actor): Promise<string | null> {
  const password = await storeTemporaryPassword(id);
  if (!password) return null;
  await endCredentials(id);
  await auditCredentials(actor, { id }, { password: 'reset' });
  return password;
}

/**
 * A user's own change, after checking the current password (null when it is wrong): every other
 * session and login token of theirs ends; `keep`, the one the change was made with, stays signed
 * in. Answers the user as they now are.
 */
export async function changePassword(
  input: { currentPassword: string; newPassword: string },
  keep: KeptCredential,
  actor: Actor,
): Promise<PublicUser | null> {
  const { user } = actor;
  if (!(await changeOwnPassword(user.id, input.currentPassword, input.newPassword))) return null;
  await endCredentials(user.id, keep);
  await auditCredentials(actor, user, { password: 'changed' });
  return findUserById(user.id);
}

/** "Sign out everywhere": every session and login token of the actor ends, this one too. */
export async function signOutEverywhere(actor: Actor): Promise<void> {
  const { user } = actor;
  await endCredentials(user.id);
  await auditCredentials(actor, user, { sessions: 'signed out everywhere' });
}
