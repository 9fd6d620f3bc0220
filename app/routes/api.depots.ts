import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { DepotSchema } from '~/schemas/depot';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { createDepot } from '~/services/depots.server';

export const { loader, action } = apiRoute({
  /** GET /api/depots → {depots} by name: every role reads them (couriers scan at them). */
  GET: apiHandler({ role: 'viewer' }, async () => json({ depots: await listDepots() })),
  /** POST {name, address?, timeZone} → 201 {depot} (admin); 409 for a name already taken. */
  POST: apiHandler(
    { role: 'admin', idempotent: true, body: DepotSchema },
    async ({ body, actor }) => json({ depot: await createDepot(body, actor) }, { status: 201 }),
  ),
});
