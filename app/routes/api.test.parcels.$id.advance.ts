import { json } from '@remix-run/node';
import { TestAdvanceSchema } from '~/schemas/account';
import { apiRoute, found, readOptionalJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { forAccounts, wrap } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { advanceTestParcel } from '~/services/test-mode.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: forAccounts('admin'),
      ids: { id: resolveParcelRef },
      readsBody: TestAdvanceSchema,
      bodyOptional: true,
      summary: 'Move a test parcel along its life (test mode)',
      description:
        'Moves a test parcel (made with an `sk_test_` key, `livemode: false`) to its next step, or through every step to `to`: Pending → In Transit → Out for Delivery → Delivered with a sample proof of delivery, or `to: "Failed"` for a failed attempt with its `reason`. Each step is a real tracking event and fires the same webhooks as live data; its e-mails go to the account\'s test log, never to the recipient. A live parcel is 404 here; a delivered one 409.',
      bodyExample: { to: 'Delivered' },
      responses: { 200: wrap('parcel', 'Parcel') },
      errors: [404, 409],
    },
    async ({ request, ids, actor }) => {
      // The body is optional: an empty request without a Content-Type means the next step.
      const input = await readOptionalJsonBody(request, TestAdvanceSchema);
      return json({
        parcel: await found(advanceTestParcel(ids.id, input, actor), 'Test parcel not found'),
      });
    },
  ),
});
