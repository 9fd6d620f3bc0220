import { json } from '@remix-run/node';
import { listParcelChanges, listParcels } from '~/models/parcel-reads.server';
import { ParcelCreateSchema, ParcelListQuerySchema } from '~/schemas/parcel';
import { apiRoute } from '~/http/api.server';
import { apiHandler, apiSyncedList } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { createParcel } from '~/services/parcels.server';

export const { loader, action } = apiRoute({
  GET: apiSyncedList('viewer', {
    query: ParcelListQuerySchema,
    key: 'parcels',
    item: 'Parcel',
    list: listParcels,
    changes: listParcelChanges,
    summary: 'List parcels, newest first',
    description:
      'Parcels, newest first (or by `sort` and `order`), a page at a time: `page` from 1, `limit` at most 100. `status` and `search` (tracking number, sender or recipient) filter the list.',
  }),
  POST: apiHandler(
    {
      role: 'staff',
      idempotent: true,
      body: ParcelCreateSchema,
      summary: "Create a parcel ('Pending', fixed cost, a new tracking number)",
      description:
        "Creates a parcel: status Pending, the fixed creation cost and a new tracking number whose last digit is its check digit. Only the recipient's name and address are required; unset fields take their defaults (Standard service and priority).",
      bodyExample: {
        recipient: {
          name: 'Ada Lovelace',
          address: '12 Analytical Way',
          city: 'Springfield',
          postalCode: '62701',
          country: 'US',
          email: 'ada@example.com',
        },
        sender: { name: 'Acme Books', address: '1 Harbor Rd', city: 'Portland', country: 'US' },
        weight: 2.5,
        dimensions: { length: 30, width: 20, height: 10 },
        serviceType: 'Express',
        estimatedDelivery: '2026-05-06',
        deliveryWindow: { from: '2026-05-06T09:00:00-04:00', until: '2026-05-06T13:00:00-04:00' },
      },
      responses: { 201: wrap('parcel', 'Parcel') },
    },
    async ({ body, actor }) => json({ parcel: await createParcel(body, actor) }, { status: 201 }),
  ),
});
