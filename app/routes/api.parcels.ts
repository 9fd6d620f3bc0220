import { json } from '@remix-run/node';
import { listParcels } from '~/models/parcel.server';
import { ParcelCreateSchema, ParcelListQuerySchema } from '~/schemas/parcel';
import { apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';
import { createParcel } from '~/services/parcels.server';

export const { loader, action } = apiRoute({
  /** GET /api/parcels?page&limit&status&search → { parcels, pagination } */
  GET: apiHandler({ role: 'viewer', query: ParcelListQuerySchema }, async ({ query }) =>
    json(await listParcels(query)),
  ),
  /** POST /api/parcels → 201 { parcel } ('Pending', the fixed creation cost, a fresh tracking number) */
  POST: apiHandler(
    { role: 'staff', idempotent: true, body: ParcelCreateSchema },
    async ({ body, actor }) => json({ parcel: await createParcel(body, actor) }, { status: 201 }),
  ),
});
