import { getApiKey } from '~/models/api-key.server';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiRecord } from '~/http/api-handler.server';
import { deleted } from '~/http/api-operation.server';
import { revokeApiKey } from '~/services/integrations.server';

const apiKey = apiRecord('apiKey', { item: 'ApiKey', label: 'API key' });

/** API keys are the admin's. */
export const { loader, action } = apiRoute({
  GET: apiKey.get(ADMIN_AREA, getApiKey, {
    etag: false,
    summary: 'One API key (admin)',
    description: 'One API key, without the key itself.',
  }),
  DELETE: apiKey.change(ADMIN_AREA, revokeApiKey, {
    summary: 'Revoke an API key (admin)',
    description: 'Revokes an API key at once: it stops working with the next request.',
    responses: { 200: deleted('apiKey', 'ApiKey') },
    answer: (revoked) => ({
      success: true,
      message: `API key ${revoked.name} revoked`,
      apiKey: revoked,
    }),
  }),
});
