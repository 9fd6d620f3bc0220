import { audit } from '~/services/audit.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { deleteParcel, getParcel, updateParcel } from '~/models/parcel.server';
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
    if (request.method === 'DELETE') {
      const deleted = await deleteParcel(id);
      if (!deleted) throw notFound();
      await audit(
        { user, context, via: 'api' },
        {
          action: 'delete',
          entity: 'parcel',
          entityId: id,
          label: deleted.trackingNumber,
          before: deleted,
        },
      );
      return json({ success: true, message: `Parcel ${deleted.trackingNumber} deleted` });
    }
    const input = await readJsonBody(request, ParcelUpdateSchema);
    const before = await getParcel(id);
    const parcel = await updateParcel(id, input);
    if (!parcel) throw notFound();
    await audit(
      { user, context, via: 'api' },
      {
        action: 'update',
        entity: 'parcel',
        entityId: id,
        label: parcel.trackingNumber,
        before,
        after: parcel,
      },
    );
    return json({ parcel });
  });
}
