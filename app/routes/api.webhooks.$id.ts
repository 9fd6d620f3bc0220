import { getWebhook } from '~/models/webhook.server';
import { WebhookUpdateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiRecord } from '~/http/api-handler.server';
import { deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

const webhook = apiRecord('webhook', { idLabel: 'webhook id', notFound: 'Webhook not found' });

/** Webhooks are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/webhooks/:id → { webhook }. */
  GET: webhook.get(ADMIN_AREA, getWebhook),
  /** PUT { url?, events?, description?, active? } → { webhook }. */
  PUT: webhook.update(ADMIN_AREA, WebhookUpdateSchema, async (id, input, actor) => {
    await checkWebhookUrl(input.url);
    return updateWebhook(id, input, actor);
  }),
  /** DELETE → { success, message, webhook }. */
  DELETE: webhook.change(ADMIN_AREA, deleteWebhook, (deleted) => ({
    success: true,
    message: 'Webhook deleted',
    webhook: deleted,
  })),
});
