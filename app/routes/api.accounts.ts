import { json } from '@remix-run/node';
import { listAccounts } from '~/models/account.server';
import { AccountCreateSchema } from '~/schemas/account';
import { apiRoute } from '~/http/api.server';
import { apiEvery, apiHandler } from '~/http/api-handler.server';
import { example, wrap } from '~/http/api-operation.server';
import { createAccount } from '~/services/accounts.server';

/** Shipper accounts are the admin's. */
export const { loader, action } = apiRoute({
  GET: apiEvery('admin', 'accounts', 'Account', () => listAccounts(), {
    summary: 'List shipper accounts (admin)',
    description: 'Every shipper account, by name, active and suspended.',
  }),
  POST: apiHandler(
    {
      role: 'admin',
      idempotent: true,
      body: AccountCreateSchema,
      summary: 'Create a shipper account (admin)',
      description:
        "Creates a shipper account: the company's name, contact e-mail and phone, billing address, pickup address (the billing one when not given: the sender of the parcels its keys create) and default language. Its API keys come from POST /api/accounts/{id}/api-keys.",
      bodyExample: (({ name, email, phone, address, language }) => ({
        name,
        email,
        phone,
        address,
        language,
      }))(example('Account') as Record<string, unknown>),
      responses: { 201: wrap('account', 'Account') },
    },
    async ({ body, actor }) => json({ account: await createAccount(body, actor) }, { status: 201 }),
  ),
});
