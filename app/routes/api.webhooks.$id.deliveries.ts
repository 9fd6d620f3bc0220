import { json } from '@remix-run/node';
import { getWebhook, listDeliveries } from '~/models/webhook.server';
import { WebhookDeliveryQuerySchema } from '~/schemas/integrations';
import { apiRoute, found } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/webhooks/:id/deliveries?page&limit → { deliveries, pagination }, newest first; each
   * with its attempts (time, status code, duration, the first 1 KB of the answer) (admin).
   */
  GET: apiHandler(
    { role: ADMIN_AREA, ids: { id: 'webhook id' }, query: WebhookDeliveryQuerySchema },
    async ({ ids, query }) => {
      await found(getWebhook(ids.id), 'Webhook not found');
      return json(await listDeliveries(ids.id, query));
    },
  ),
});
