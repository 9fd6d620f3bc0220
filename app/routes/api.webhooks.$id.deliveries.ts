import { json } from '@remix-run/node';
import { getWebhook, listDeliveries } from '~/models/webhook.server';
import { WebhookDeliveryQuerySchema } from '~/schemas/integrations';
import { apiRoute, found } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';
import { list } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: ADMIN_AREA,
      ids: { id: 'webhook id' },
      query: WebhookDeliveryQuerySchema,
      summary: "An endpoint's deliveries and their attempts (admin)",
      description:
        "The endpoint's deliveries, newest first, a page at a time (`page` from 1, `limit`), each with every attempt: when, the status code, the first 1 KB of the answer and the error.",
      responses: { 200: list('deliveries', 'WebhookDelivery') },
      errors: [404],
    },
    async ({ ids, query }) => {
      await found(getWebhook(ids.id), 'Webhook not found');
      return json(await listDeliveries(ids.id, query));
    },
  ),
});
