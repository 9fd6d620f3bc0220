import { json } from '@remix-run/node';
import { RunCreateSchema, RunListQuerySchema } from '~/schemas/run';
import { EXAMPLE_IDS } from '~/schemas/api-examples';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { items, wrap } from '~/http/api-operation.server';
import { createRun, listRuns } from '~/services/runs.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      query: RunListQuerySchema,
      summary: 'One depot’s runs of a day',
      description:
        'The couriers’ runs of one depot on one day (`date`, YYYY-MM-DD in the company’s zone), oldest first, each with its stops in order.',
      responses: { 200: items('runs', 'Run') },
    },
    async ({ query }) => json({ runs: await listRuns(query) }),
  ),
  POST: apiHandler(
    {
      role: 'staff',
      idempotent: true,
      body: RunCreateSchema,
      summary: 'Plan a courier’s run: its stops in the order given',
      description:
        'Gives parcels to deliver and the day’s pickups to make to a courier’s run for a depot’s day (staff): its stops in the order of `parcelIds` then `pickupIds`, or of `stops`, which mixes both (`{kind: "delivery", parcelId}` or `{kind: "pickup", pickupId}`); `parcelIds` alone works as it always has. Each stop of the run carries its `kind`, and `pickupId` for a pickup. A parcel or a pickup is on one open run at a time: one on another planned run moves to this one; one on a started run is 409 with code parcel_on_started_run or pickup_on_started_run, a delivered or returned parcel 409 with code parcel_closed, a pickup no longer scheduled 409 with code pickup_closed. 400 for an unknown depot, courier, parcel or pickup, or a pickup of another day.',
      bodyExample: {
        date: '2026-05-06',
        depotId: EXAMPLE_IDS.depot,
        courierId: EXAMPLE_IDS.user,
        stops: [
          { kind: 'delivery', parcelId: EXAMPLE_IDS.parcel },
          { kind: 'pickup', pickupId: EXAMPLE_IDS.pickup },
        ],
      },
      responses: { 201: wrap('run', 'Run') },
      errors: [409],
    },
    async ({ body, actor }) => json({ run: await createRun(body, actor) }, { status: 201 }),
  ),
});
