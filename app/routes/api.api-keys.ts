import { json } from '@remix-run/node';
import { listApiKeys } from '~/models/api-key.server';
import { ApiKeyCreateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiEvery, apiHandler } from '~/http/api-handler.server';
import { example, obj, ref } from '~/http/api-operation.server';
import { issueApiKey } from '~/services/integrations.server';

/** API keys are the admin's. */
export const { loader, action } = apiRoute({
  GET: apiEvery(ADMIN_AREA, 'apiKeys', 'ApiKey', () => listApiKeys(), {
    summary: 'List API keys (admin)',
    description: 'Every API key, newest first, without the keys themselves.',
  }),
  POST: apiHandler(
    {
      role: ADMIN_AREA,
      idempotent: true,
      body: ApiKeyCreateSchema,
      summary: 'Create an API key; the key is in this answer only (admin)',
      description:
        'Creates a long-lived API key with scopes (read, write, admin). The key (sk_\u2026) is in this answer only: store it then.',
      bodyExample: { name: 'Warehouse sync', scopes: ['read', 'write'] },
      responses: {
        201: {
          schema: obj({ apiKey: ref('ApiKey'), key: { type: 'string', pattern: '^sk_' } }),
          example: { apiKey: example('ApiKey'), key: 'sk_3f9a6c1e8b2d4f7a9c0e1b3d5f7a9c1e' },
        },
      },
    },
    async ({ body, actor }) => json(await issueApiKey(body, actor), { status: 201 }),
  ),
});
