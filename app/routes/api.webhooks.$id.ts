import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { deleteWebhook, getWebhook, updateWebhook } from '~/models/webhook.server';
import { WebhookUpdateSchema } from '~/schemas/integrations';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/services/api.server';
import { requireApiUser, requireRole } from '~/services/auth.server';
import { checkWebhookUrl } from '~/services/webhook-api.server';

const NOT_FOUND = 'Webhook not found';

/** GET /api/webhooks/:id → { webhook } (admin). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    requireRole(await requireApiUser(request), 'admin');
    const webhook = await getWebhook(requireObjectId(params.id, 'webhook id'));
    if (!webhook) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { webhook });
  });
}

/** PUT { url?, events?, description?, active? } → { webhook }; DELETE → { success, message } (admin). */
export function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT' && request.method !== 'DELETE')
      return methodNotAllowed(['GET', 'PUT', 'DELETE']);
    requireRole(await requireApiUser(request), 'admin');
    const id = requireObjectId(params.id, 'webhook id');
    if (request.method === 'DELETE') {
      const deleted = await deleteWebhook(id);
      if (!deleted) throw new ApiError(404, NOT_FOUND);
      return json({ success: true, message: 'Webhook deleted', webhook: deleted });
    }
    const input = await readJsonBody(request, WebhookUpdateSchema);
    await checkWebhookUrl(input.url);
    const webhook = await updateWebhook(id, input);
    if (!webhook) throw new ApiError(404, NOT_FOUND);
    return json({ webhook });
  });
}
