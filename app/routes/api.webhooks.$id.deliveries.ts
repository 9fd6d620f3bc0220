import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getWebhook, listDeliveries } from '~/models/webhook.server';
import { WebhookDeliveryQuerySchema } from '~/schemas/integrations';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  parseQuery,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';

/**
 * GET /api/webhooks/:id/deliveries?page&limit → { deliveries, pagination }, newest first; each
 * with its attempts (time, status code, duration, the first 1 KB of the answer) (admin).
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    const id = requireObjectId(params.id, 'webhook id');
    const query = parseQuery(request, WebhookDeliveryQuerySchema);
    if (!(await getWebhook(id))) throw new ApiError(404, 'Webhook not found');
    return json(await listDeliveries(id, query));
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
