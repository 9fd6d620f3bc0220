import { json } from '@remix-run/node';
import { listApiKeys } from '~/models/api-key.server';
import { ApiKeyCreateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';
import { issueApiKey } from '~/services/integrations.server';

/** API keys are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/api-keys → { apiKeys } newest first. */
  GET: apiHandler({ role: ADMIN_AREA }, async () => json({ apiKeys: await listApiKeys() })),
  /** POST /api/api-keys { name, scopes } → 201 { apiKey, key }: the key is shown this once. */
  POST: apiHandler(
    { role: ADMIN_AREA, idempotent: true, body: ApiKeyCreateSchema },
    async ({ body, actor }) => json(await issueApiKey(body, actor), { status: 201 }),
  ),
});
