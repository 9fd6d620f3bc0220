import { json } from '@remix-run/node';
import { getAccount } from '~/models/account.server';
import { listAccountUsers } from '~/models/user.server';
import { AccountUserInviteSchema } from '~/schemas/account';
import { ApiError, apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { items, wrap, type Access } from '~/http/api-operation.server';
import { accountRecordRef } from '~/http/account-refs.server';
import { ACCOUNT_ADMIN_ONLY } from '~/http/auth.server';
import type { Actor } from '~/services/audit.server';
import { inviteAccountUser } from '~/services/account-users.server';

/** Staff admins, or the account's own admin (as a user: an account's key is not one). */
const ACCOUNT_ADMINS: Access = { role: 'admin', accounts: true };
const ids = { id: accountRecordRef('account', async (id, accountId) => id === accountId) };

function requireAccountAdmin(actor: Actor) {
  if (actor.user.account && actor.user.accountRole !== 'admin')
    throw new ApiError(403, ACCOUNT_ADMIN_ONLY);
}

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: ACCOUNT_ADMINS,
      ids,
      summary: "A shipper account's users (admin, or the account's admin)",
      description: "The account's users, by name, each an admin of the account or a member.",
      responses: { 200: items('users', 'User') },
      errors: [404],
    },
    async ({ ids, actor }) => {
      requireAccountAdmin(actor);
      await found(getAccount(ids.id), 'Account not found');
      return json({ users: await listAccountUsers(ids.id) });
    },
  ),
  POST: apiHandler(
    {
      role: ACCOUNT_ADMINS,
      ids,
      idempotent: true,
      body: AccountUserInviteSchema,
      summary: 'Invite a user to a shipper account by e-mail',
      description:
        "Invites a user to the account (staff admins, or the account's own admin): an e-mail with a signed link that works once, for 7 days, to choose a password; they then sign in at /account/sign-in with their e-mail address. An address already in use (by anyone) is 409.",
      bodyExample: { name: 'Grace Hopper', email: 'grace@acmebooks.example' },
      responses: { 201: wrap('user', 'User') },
      errors: [404, 409],
    },
    async ({ ids, body, actor }) => {
      requireAccountAdmin(actor);
      return json({ user: await inviteAccountUser(ids.id, body, actor) }, { status: 201 });
    },
  ),
});
