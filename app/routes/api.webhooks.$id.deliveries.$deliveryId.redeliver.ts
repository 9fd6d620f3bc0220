import { json } from '@remix-run/node';
import { apiRoute, found } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';
import { redeliver } from '~/services/webhooks.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/webhooks/:id/deliveries/:deliveryId/redeliver → 202 { delivery }: the same message
   * (id and body) is queued again, with the usual retries. 409 while it is still queued (admin).
   */
  POST: apiHandler(
    { role: ADMIN_AREA, ids: { id: 'webhook id', deliveryId: 'delivery id' }, idempotent: true },
    async ({ ids }) => {
      const delivery = await found(redeliver(ids.id, ids.deliveryId), 'Delivery not found');
      return json({ delivery }, { status: 202 });
    },
  ),
});
