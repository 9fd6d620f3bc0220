import { createApiKey, type SerializedApiKey } from '~/models/api-key.server';
import {
  getAccount,
  insertAccount,
  updateAccountFields,
  type SerializedAccount,
} from '~/models/account.server';
import { NotFoundError } from '~/lib/errors.server';
import type {
  AccountApiKeyCreateInput,
  AccountCreateInput,
  AccountUpdateInput,
} from '~/schemas/account';
import { auditedCreate, auditedCreateWithSecret, auditedUpdate, type Actor } from './audit.server';
import { endCredentials } from './users.server';
import { accountUserIds } from '~/models/user.server';

/**
 * The changes to shipper accounts, each audited: staff create, edit and suspend them, and give
 * them API keys. Suspending takes effect at once: every request of the account's keys and users
 * checks that the account is active (app/http/auth.server.ts).
 */

export async function createAccount(
  input: AccountCreateInput,
  actor?: Actor,
): Promise<SerializedAccount> {
  return auditedCreate(
    actor,
    'account',
    (account) => account.name,
    () => insertAccount(input),
  );
}

/** The fields given change (`status: 'suspended'` suspends); null when there is no such account. */
export async function updateAccount(
  id: string,
  input: AccountUpdateInput,
  actor?: Actor,
): Promise<SerializedAccount | null> {
  const account = await auditedUpdate(actor, 'account', (account) => account.name, {
    read: () => getAccount(id),
    write: () => updateAccountFields(id, input),
  });
  // Its users are signed out at once (its keys stop at their next request, which checks).
  if (account?.status === 'suspended')
    for (const userId of await accountUserIds(id)) await endCredentials(userId);
  return account;
}

/**
 * A key that acts for the account on its live (`sk_live_…`) or test (`sk_test_…`) data; the key
 * itself is in the answer and nowhere else.
 */
export async function issueAccountApiKey(
  accountId: string,
  input: AccountApiKeyCreateInput,
  actor: Actor,
): Promise<{ apiKey: SerializedApiKey; key: string }> {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  return auditedCreateWithSecret(
    actor,
    'key',
    (created) => created.apiKey,
    (apiKey) => `${account.name}: ${apiKey.name}`,
    () =>
      createApiKey({ name: input.name, scopes: input.scopes }, actor.user.id, {
        accountId,
        livemode: input.mode === 'live',
      }),
  );
}
