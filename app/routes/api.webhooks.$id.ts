import { getWebhook, webhookOwnedBy } from '~/models/webhook.server';
import { WebhookUpdateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleted, WEBHOOKS_AREA } from '~/http/api-operation.server';
import { accountRecordRef } from '~/http/account-refs.server';
import { deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

const webhook = apiRecord('webhook', {
  item: 'Webhook',
  idLabel: accountRecordRef('webhook', webhookOwnedBy),
});

/** Webhooks are the admin's, and a shipper account's own. */
export const { loader, action } = apiRoute({
  GET: webhook.get(WEBHOOKS_AREA, getWebhook, {
    summary: 'One endpoint (admin)',
    description: 'One webhook endpoint, without its secret.',
  }),
  PUT: webhook.update(
    WEBHOOKS_AREA,
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
  DELETE: webhook.change(WEBHOOKS_AREA, deleteWebhook, {
    summary: 'Delete an endpoint (admin)',
    description: 'Deletes an endpoint and its delivery log.',
    responses: { 200: deleted('webhook', 'Webhook') },
    answer: (removed) => ({ success: true, message: 'Webhook deleted', webhook: removed }),
  }),
});
