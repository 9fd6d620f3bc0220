import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { DepotSchema } from '~/schemas/depot';
import { ApiError, apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';
import { createDepot, DepotNameTaken } from '~/services/depots.server';

export const { loader, action } = apiRoute({
  /** GET /api/depots → {depots} by name: for couriers and staff, who scan at them. */
  GET: apiHandler({ role: 'courier' }, async () => json({ depots: await listDepots() })),
  /** POST {name, address?, timeZone} → 201 {depot} (admin); 409 for a name already taken. */
  POST: apiHandler(
    { role: 'admin', idempotent: true, body: DepotSchema },
    async ({ body, actor }) => {
      try {
        return json({ depot: await createDepot(body, actor) }, { status: 201 });
      } catch (error) {
        if (error instanceof DepotNameTaken) throw new ApiError(409, error.message);
        throw error;
      }
    },
  ),
});
