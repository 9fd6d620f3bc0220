import { json } from '@remix-run/node';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';
import { addWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

/** Webhooks are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/webhooks → { webhooks } newest first. */
  GET: apiHandler({ role: ADMIN_AREA }, async () => json({ webhooks: await listWebhooks() })),
  /**
   * POST /api/webhooks { url, events, description } → 201 { webhook, secret }: the `whsec_`
   * secret that signs its deliveries is shown this once.
   */
  POST: apiHandler(
    { role: ADMIN_AREA, idempotent: true, body: WebhookCreateSchema },
    async ({ body, actor }) => {
      await checkWebhookUrl(body.url);
      return json(await addWebhook(body, actor), { status: 201 });
    },
  ),
});
