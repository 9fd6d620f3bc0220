import { json } from '@remix-run/node';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { WEBHOOKS_AREA, wrap } from '~/http/api-operation.server';
import { accountRecordRef } from '~/http/account-refs.server';
import { webhookOwnedBy } from '~/models/webhook.server';
import { redeliver } from '~/services/webhooks.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: WEBHOOKS_AREA,
      ids: { id: accountRecordRef('webhook', webhookOwnedBy), deliveryId: 'delivery id' },
      idempotent: true,
      summary: 'Queue a delivery again (admin)',
      description:
        'Sends a delivery again with the same webhook-id and body, with the usual retries. 409 while it is still queued.',
      responses: { 202: wrap('delivery', 'WebhookDelivery') },
      errors: [404, 409],
    },
    async ({ ids }) => {
      const delivery = await found(redeliver(ids.id, ids.deliveryId), 'Delivery not found');
      return json({ delivery }, { status: 202 });
    },
  ),
});
