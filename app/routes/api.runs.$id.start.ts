import { json } from '@remix-run/node';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { startRun } from '~/services/runs.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'courier',
      idempotent: true,
      ids: { id: 'run id' },
      summary: 'Start a run: every stop Out for Delivery',
      description:
        'Starts a planned run (its courier, or staff): each parcel’s stop is recorded Out for Delivery as a scan at the run’s depot would be (events, e-mails, webhooks), a pickup’s stop stays as it is; and each stop gets its expected time, each parcel its one-hour window (`eta` on the parcel, `parcel.eta_updated`). 409 with code run_started when it has already started; a courier’s own runs only (404 otherwise).',
      responses: { 200: wrap('run', 'Run') },
      errors: [404, 409],
    },
    async ({ ids, actor }) => json({ run: await found(startRun(ids.id, actor), 'Run not found') }),
  ),
});
