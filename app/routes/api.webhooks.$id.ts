import { getWebhook } from '~/models/webhook.server';
import { WebhookUpdateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiRecord } from '~/http/api-handler.server';
import { deleted } from '~/http/api-operation.server';
import { deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

const webhook = apiRecord('webhook', {
  item: 'Webhook',
  idLabel: 'webhook id',
  notFound: 'Webhook not found',
});

/** Webhooks are the admin's. */
export const { loader, action } = apiRoute({
  GET: webhook.get(ADMIN_AREA, getWebhook, {
    summary: 'One endpoint (admin)',
    description: 'One webhook endpoint, without its secret.',
  }),
  PUT: webhook.update(
    ADMIN_AREA,
    WebhookUpdateSchema,
    async (id, input, actor) => {
      await checkWebhookUrl(input.url);
      return updateWebhook(id, input, actor);
    },
    {
      summary: 'Change the fields given (admin)',
      description:
        'Changes the fields given (url, events, description, active); `active: false` pauses deliveries.',
      bodyExample: { active: false },
    },
  ),
  DELETE: webhook.change(ADMIN_AREA, deleteWebhook, {
    summary: 'Delete an endpoint (admin)',
    description: 'Deletes an endpoint and its delivery log.',
    responses: { 200: deleted('webhook', 'Webhook') },
    answer: (removed) => ({ success: true, message: 'Webhook deleted', webhook: removed }),
  }),
});
