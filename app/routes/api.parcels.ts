import { json } from '@remix-run/node';
import { listParcelChanges, listParcels } from '~/models/parcel.server';
import { ParcelCreateSchema, ParcelListQuerySchema } from '~/schemas/parcel';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { createParcel } from '~/services/parcels.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/parcels?page&limit&status&search → { parcels, pagination }; with updatedSince or
   * cursor, a page of a sync → { parcels (deleted ones too), pagination, nextCursor, hasMore }.
   */
  GET: apiHandler({ role: 'viewer', query: ParcelListQuerySchema }, async ({ query }) =>
    json(
      query.cursor || query.updatedSince
        ? await listParcelChanges(query)
        : await listParcels(query),
    ),
  ),
  /** POST /api/parcels → 201 { parcel } ('Pending', the fixed creation cost, a fresh tracking number) */
  POST: apiHandler(
    { role: 'staff', idempotent: true, body: ParcelCreateSchema },
    async ({ body, actor }) => json({ parcel: await createParcel(body, actor) }, { status: 201 }),
  ),
});
