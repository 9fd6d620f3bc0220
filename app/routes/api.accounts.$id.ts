import { getAccount } from '~/models/account.server';
import { AccountUpdateSchema } from '~/schemas/account';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { updateAccount } from '~/services/accounts.server';

const account = apiRecord('account', { item: 'Account' });

export const { loader, action } = apiRoute({
  GET: account.get('admin', getAccount, {
    summary: 'One shipper account (admin)',
    description: 'One shipper account with its addresses, language and status.',
  }),
  PUT: account.update('admin', AccountUpdateSchema, updateAccount, {
    summary: 'Change a shipper account, or suspend it (admin)',
    description:
      'Changes the fields given. `{"status": "suspended"}` suspends the account at once: its API keys answer 401 and its users are signed out; `{"status": "active"}` lets them back in.',
    bodyExample: { status: 'suspended' },
  }),
});
