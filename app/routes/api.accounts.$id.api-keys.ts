import { json } from '@remix-run/node';
import { listApiKeys } from '~/models/api-key.server';
import { getAccount } from '~/models/account.server';
import { AccountApiKeyCreateSchema } from '~/schemas/account';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { example, items, obj, ref } from '~/http/api-operation.server';
import { issueAccountApiKey } from '~/services/accounts.server';

const ids = { id: 'account id' };
const NOT_FOUND = 'Account not found';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'admin',
      ids,
      summary: "A shipper account's API keys (admin)",
      description: "The account's keys, live and test, newest first, without the keys themselves.",
      responses: { 200: items('apiKeys', 'ApiKey') },
      errors: [404],
    },
    async ({ ids }) => {
      await found(getAccount(ids.id), NOT_FOUND);
      return json({ apiKeys: await listApiKeys(ids.id) });
    },
  ),
  POST: apiHandler(
    {
      role: 'admin',
      ids,
      idempotent: true,
      body: AccountApiKeyCreateSchema,
      summary: 'Create a key that acts for the account; the key is in this answer only (admin)',
      description:
        'Creates a key that acts for the shipper account, never as a staff user: `mode: "live"` gives an `sk_live_…` key on the account\'s live parcels, `mode: "test"` an `sk_test_…` key on its test parcels (`livemode: false`, never delivered or messaged). Scopes: read (GET) and write (changes). With it, the account lists, creates and reads only its own parcels (404 for any other), their labels, events and proofs of delivery, and its own webhooks; staff routes answer 403. The key is in this answer only: store it then.',
      bodyExample: { name: 'Shop integration', scopes: ['read', 'write'], mode: 'test' },
      responses: {
        201: {
          schema: obj({
            apiKey: ref('ApiKey'),
            key: { type: 'string', pattern: '^sk_(live|test)_' },
          }),
          example: {
            apiKey: {
              ...(example('ApiKey') as object),
              accountId: '665f1c2ab4d3e8a1c0ffee1a',
              livemode: false,
              prefix: 'sk_test_9c1e',
            },
            key: 'sk_test_9c1e3f9a6c1e8b2d4f7a9c0e1b3d5f7a',
          },
        },
      },
      errors: [404],
    },
    async ({ ids, body, actor }) =>
      json(await issueAccountApiKey(ids.id, body, actor), { status: 201 }),
  ),
});
