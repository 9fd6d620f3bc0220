import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { addWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhook-api.server';

/** GET /api/webhooks → { webhooks } newest first (admin). */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    return json({ webhooks: await listWebhooks() });
  });
}

/**
 * POST /api/webhooks { url, events, description } → 201 { webhook, secret }: the `whsec_` secret
 * that signs its deliveries is shown this once (admin).
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiAdmin(request);
    return idempotent(request, async () => {
      const input = await readJsonBody(request, WebhookCreateSchema);
      await checkWebhookUrl(input.url);
      const created = await addWebhook(input, { user, context, via: 'api' });
      return json(created, { status: 201 });
    });
  });
}
