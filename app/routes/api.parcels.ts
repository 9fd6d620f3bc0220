import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listParcels } from '~/models/parcel.server';
import { ParcelCreateSchema, ParcelListQuerySchema } from '~/schemas/parcel';
import { handleApi, methodNotAllowed, parseQuery, readJsonBody } from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { createParcel } from '~/services/parcels.server';

/** GET /api/parcels?page&limit&status&search → { parcels, pagination } */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const query = parseQuery(request, ParcelListQuerySchema);
    return json(await listParcels(query));
  });
}

/** POST /api/parcels → 201 { parcel } (status 'Pending', the fixed creation cost, a fresh tracking number) */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiRole(request, 'staff');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, ParcelCreateSchema);
      const parcel = await createParcel(input, { user, context, via: 'api' });
      return json({ parcel }, { status: 201 });
    });
  });
}
