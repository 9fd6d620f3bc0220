import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { redeliver, RedeliveryConflict } from '~/services/webhooks.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/webhooks/:id/deliveries/:deliveryId/redeliver → 202 { delivery }: the same message
 * (id and body) is queued again, with the usual retries. 409 while it is still queued (admin).
 */
export function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    await requireApiAdmin(request);
    const webhookId = requireObjectId(params.id, 'webhook id');
    const deliveryId = requireObjectId(params.deliveryId, 'delivery id');
    return idempotent(request, async () => {
      try {
        const delivery = await redeliver(webhookId, deliveryId);
        if (!delivery) throw new ApiError(404, 'Delivery not found');
        return json({ delivery }, { status: 202 });
      } catch (error) {
        if (error instanceof RedeliveryConflict) throw new ApiError(409, error.message);
        throw error;
      }
    });
  });
}
