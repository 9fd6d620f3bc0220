import { json } from '@remix-run/node';
import { DepotSchema } from '~/schemas/depot';
import { ApiError, apiRoute, jsonWithEtag } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { deleteDepot, getDepot, updateDepot } from '~/services/depots.server';

const NOT_FOUND = 'Depot not found';
const ids = { id: 'depot id' };

/** Events recorded at a depot keep its name and zone whatever becomes of it. */
export const { loader, action } = apiRoute({
  /** GET /api/depots/:id → {depot}. */
  GET: apiHandler({ role: 'viewer', ids }, async ({ request, ids: { id } }) => {
    const depot = await getDepot(id);
    if (!depot) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { depot });
  }),
  /** PUT {name, address?, timeZone} → {depot} (admin). */
  PUT: apiHandler(
    { role: 'admin', ids, body: DepotSchema },
    async ({ ids: { id }, body, actor }) => {
      const depot = await updateDepot(id, body, actor);
      if (!depot) throw new ApiError(404, NOT_FOUND);
      return json({ depot });
    },
  ),
  /** DELETE → {success, message, depot} (admin). */
  DELETE: apiHandler({ role: 'admin', ids }, async ({ ids: { id }, actor }) => {
    const depot = await deleteDepot(id, actor);
    if (!depot) throw new ApiError(404, NOT_FOUND);
    return json({ success: true, message: 'Depot deleted', depot });
  }),
});
