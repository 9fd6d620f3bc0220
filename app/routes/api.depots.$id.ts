import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { DepotSchema } from '~/schemas/depot';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { deleteDepot, DepotNameTaken, getDepot, updateDepot } from '~/services/depots.server';

const NOT_FOUND = 'Depot not found';

/** GET /api/depots/:id → {depot}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiRole(request, 'courier');
    const depot = await getDepot(requireObjectId(params.id, 'depot id'));
    if (!depot) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { depot });
  });
}

/**
 * PUT {name, address?, timeZone} → {depot}; DELETE → {success, depot} (admin). Events recorded
 * at a depot keep its name and zone whatever becomes of it.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'admin');
    const id = requireObjectId(params.id, 'depot id');
    const actor = { user, context, via: 'api' } as const;
    if (request.method === 'DELETE') {
      const depot = await deleteDepot(id, actor);
      if (!depot) throw new ApiError(404, NOT_FOUND);
      return json({ success: true, message: 'Depot deleted', depot });
    }
    const input = await readJsonBody(request, DepotSchema);
    try {
      const depot = await updateDepot(id, input, actor);
      if (!depot) throw new ApiError(404, NOT_FOUND);
      return json({ depot });
    } catch (error) {
      if (error instanceof DepotNameTaken) throw new ApiError(409, error.message);
      throw error;
    }
  });
}
