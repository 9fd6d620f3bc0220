import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { PickupOutcomeSchema } from '~/schemas/pickup';
import { recordPickupStop } from '~/services/pickups.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'courier',
      idempotent: true,
      ids: { id: 'pickup id' },
      body: PickupOutcomeSchema,
      summary: 'Record a pickup stop’s outcome: Collected or Not collected (couriers and up)',
      description:
        'What the courier’s run records at a pickup, one tap: `collected` with the count handed over (`collectedCount`; the pickup is completed, `pickup.completed`), or `not_collected` with its `reason` (`other` with a `note`; the pickup is missed, `pickup.missed`). Either closes the pickup’s stop on its run and moves the run’s expected times. A pickup no longer scheduled (collected by a scan, cancelled, recorded already) answers 409 with code pickup_closed; sent again with the same `Idempotency-Key`, the first answer is replayed and nothing is recorded twice.',
      bodyExample: { outcome: 'not_collected', reason: 'not_ready', note: '' },
      responses: { 200: wrap('pickup', 'Pickup') },
      errors: [404, 409],
    },
    async ({ ids, body, actor }) => json({ pickup: await recordPickupStop(ids.id, body, actor) }),
  ),
});
