import { json } from '@remix-run/node';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiEvery, apiHandler } from '~/http/api-handler.server';
import { example, obj, ref } from '~/http/api-operation.server';
import { addWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

/** Webhooks are the admin's. */
export const { loader, action } = apiRoute({
  GET: apiEvery(ADMIN_AREA, 'webhooks', 'Webhook', listWebhooks, {
    summary: 'List webhook endpoints (admin)',
    description: 'Every webhook endpoint, newest first, without its secret.',
  }),
  POST: apiHandler(
    {
      role: ADMIN_AREA,
      idempotent: true,
      body: WebhookCreateSchema,
      summary: 'Add an endpoint; its whsec_ secret is in this answer only (admin)',
      description:
        'Adds an endpoint for the event types given. Its whsec_ signing secret is in this answer only. Receivers on loopback and private addresses are refused.',
      bodyExample: {
        url: 'https://hooks.example.com/courier',
        events: ['parcel.status_changed', 'parcel.delivered'],
        description: 'Order system',
      },
      responses: {
        201: {
          schema: obj({ webhook: ref('Webhook'), secret: { type: 'string', pattern: '^whsec_' } }),
          example: {
            webhook: example('Webhook'),
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          },
        },
      },
    },
    async ({ body, actor }) => {
      await checkWebhookUrl(body.url);
      return json(await addWebhook(body, actor), { status: 201 });
    },
  ),
});
