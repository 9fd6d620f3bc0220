import { json } from '@remix-run/node';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { apiRoute } from '~/http/api.server';
import { apiEvery, apiHandler } from '~/http/api-handler.server';
import { example, obj, ref, WEBHOOKS_AREA } from '~/http/api-operation.server';
import { scopeOf } from '~/lib/tenancy.server';
import { addWebhook } from '~/services/integrations.server';
import { checkWebhookUrl } from '~/services/webhooks.server';

/** Webhooks are the admin's, and a shipper account's own. */
export const { loader, action } = apiRoute({
  GET: apiEvery(
    WEBHOOKS_AREA,
    'webhooks',
    'Webhook',
    (actor) => listWebhooks(scopeOf(actor)?.accountId ?? null),
    {
      summary: 'List webhook endpoints (admin, or an account its own)',
      description:
        "The company's webhook endpoints, newest first, without their secrets; with a shipper account's key, the account's own.",
    },
  ),
  POST: apiHandler(
    {
      role: WEBHOOKS_AREA,
      idempotent: true,
      body: WebhookCreateSchema,
      summary: 'Add an endpoint; its whsec_ secret is in this answer only (admin)',
      description:
        "Adds an endpoint for the event types given. Its whsec_ signing secret is in this answer only. Receivers on loopback and private addresses are refused. Made with a shipper account's key, the endpoint is the account's: it receives the events of the account's own parcels only, live and test (each payload's `livemode` says which).",
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
