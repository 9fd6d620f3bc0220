import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getParcel } from '~/models/parcel.server';
import { ParcelUpdateSchema } from '~/schemas/parcel';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { deleteParcel, updateParcel } from '~/services/parcels.server';

const notFound = () => new ApiError(404, 'Parcel not found');

/** GET /api/parcels/:id → { parcel } (with its tracking events) */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'parcel id');
    const parcel = await getParcel(id);
    if (!parcel) throw notFound();
    return jsonWithEtag(request, { parcel });
  });
}

/**
 * PUT /api/parcels/:id → { parcel }. Only the fields in the body change (nested ones too).
 * DELETE /api/parcels/:id → 200 { success: true, message } — the parcel's tracking events go with it.
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT' && request.method !== 'DELETE')
      return methodNotAllowed(['GET', 'PUT', 'DELETE']);
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'parcel id');
    const actor = { user, context, via: 'api' } as const;
    if (request.method === 'DELETE') {
      const deleted = await deleteParcel(id, actor);
      if (!deleted) throw notFound();
      return json({ success: true, message: `Parcel ${deleted.trackingNumber} deleted` });
    }
    const input = await readJsonBody(request, ParcelUpdateSchema);
    const parcel = await updateParcel(id, input, actor);
    if (!parcel) throw notFound();
    return json({ parcel });
  });
}
