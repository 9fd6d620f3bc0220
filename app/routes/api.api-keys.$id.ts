import { getApiKey } from '~/models/api-key.server';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiRecord } from '~/http/api-handler.server';
import { revokeApiKey } from '~/services/integrations.server';

const apiKey = apiRecord('apiKey', { idLabel: 'API key id', notFound: 'API key not found' });

/** API keys are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/api-keys/:id → { apiKey }. */
  GET: apiKey.get(ADMIN_AREA, getApiKey, { etag: false }),
  /** DELETE /api/api-keys/:id → { success, message, apiKey }: the key stops working at once. */
  DELETE: apiKey.change(ADMIN_AREA, revokeApiKey, (revoked) => ({
    success: true,
    message: `API key ${revoked.name} revoked`,
    apiKey: revoked,
  })),
});
