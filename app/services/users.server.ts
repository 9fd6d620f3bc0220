import { deleteUserTokens } from '~/models/api-token.server';
import { deleteUserSessions } from '~/models/session.server';
import {
  findUserById,
  insertUser,
  storeTemporaryPassword,
  storeUserDisabled,
  updateUserFields,
  type PublicUser,
} from '~/models/user.server';
import type { UserCreateInput, UserUpdateInput } from '~/schemas/user';
import { audit, auditRecord, type Actor } from './audit.server';

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

/** Changes name, e-mail, role or password; the last active admin keeps the admin role. */
export async function updateUser(
  id: string,
  input: UserUpdateInput,
  actor?: Actor,
): Promise<PublicUser | null> {
  const before = await findUserById(id);
  const user = await updateUserFields(id, input);
  if (!user) return null;
  await auditRecord(actor, 'update', 'user', { label: user.username, before, after: user });
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
  const before = await findUserById(id);
  const user = await storeUserDisabled(id, disabled, { by: actor.user.id });
  if (!user) return null;
  if (disabled) {
    await deleteUserSessions(id);
    await deleteUserTokens(id);
  }
  await auditRecord(actor, 'update', 'user', { label: user.username, before, after: user });
  return user;
}

/**
 * An admin's reset: a new temporary password, returned once; the user's API tokens end. Null for
 * an unknown user.
 */
export async function resetUserPassword(id: string, actor?: Actor): Promise<string | null> {
  const password = await storeTemporaryPassword(id);
  if (!password) return null;
  await deleteUserTokens(id);
  await audit(actor, {
    action: 'update',
    entity: 'user',
    entityId: id,
    before: {},
    after: { password: 'reset' },
  });
  return password;
}
