import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { DepotSchema } from '~/schemas/depot';
import { DEPOT_EXAMPLE } from '~/schemas/api-examples';
import { apiRoute } from '~/http/api.server';
import { apiEvery, apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { createDepot } from '~/services/depots.server';

export const { loader, action } = apiRoute({
  GET: apiEvery('viewer', 'depots', 'Depot', listDepots, {
    summary: 'Depots by name',
    description:
      'Every depot, by name: the places scans are recorded at. Every role reads them (couriers scan at them).',
  }),
  POST: apiHandler(
    {
      role: 'admin',
      idempotent: true,
      body: DepotSchema,
      summary: 'Add a depot; 409 for a name already taken',
      description:
        'Adds a depot (admin): a unique name, an address and its IANA time zone. 409 for a name already taken.',
      bodyExample: DEPOT_EXAMPLE,
      responses: { 201: wrap('depot', 'Depot') },
    },
    async ({ body, actor }) => json({ depot: await createDepot(body, actor) }, { status: 201 }),
  ),
});
