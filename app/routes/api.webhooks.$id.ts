import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getWebhook } from '~/models/webhook.server';
import { WebhookUpdateSchema } from '~/schemas/integrations';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhook-api.server';

const NOT_FOUND = 'Webhook not found';

/** GET /api/webhooks/:id → { webhook } (admin). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    const webhook = await getWebhook(requireObjectId(params.id, 'webhook id'));
    if (!webhook) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { webhook });
  });
}

/** PUT { url?, events?, description?, active? } → { webhook }; DELETE → { success, message } (admin). */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT' && request.method !== 'DELETE')
      return methodNotAllowed(['GET', 'PUT', 'DELETE']);
    const user = await requireApiAdmin(request);
    const id = requireObjectId(params.id, 'webhook id');
    const actor = { user, context, via: 'api' } as const;
    if (request.method === 'DELETE') {
      const deleted = await deleteWebhook(id, actor);
      if (!deleted) throw new ApiError(404, NOT_FOUND);
      return json({ success: true, message: 'Webhook deleted', webhook: deleted });
    }
    const input = await readJsonBody(request, WebhookUpdateSchema);
    await checkWebhookUrl(input.url);
    const webhook = await updateWebhook(id, input, actor);
    if (!webhook) throw new ApiError(404, NOT_FOUND);
    return json({ webhook });
  });
}
