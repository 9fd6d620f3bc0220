import { json } from '@remix-run/node';
import { getWebhook, listDeliveries, webhookOwnedBy } from '~/models/webhook.server';
import { WebhookDeliveryQuerySchema } from '~/schemas/integrations';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { list, WEBHOOKS_AREA } from '~/http/api-operation.server';
import { accountRecordRef } from '~/http/account-refs.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: WEBHOOKS_AREA,
      ids: { id: accountRecordRef('webhook', webhookOwnedBy) },
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
