import { json } from '@remix-run/node';
import { listRecentParcels } from '~/models/dashboard.server';
import { RecentParcelsQuerySchema } from '~/schemas/dashboard';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { items } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      query: RecentParcelsQuerySchema,
      summary: 'Newest parcels',
      description: 'The newest parcels, for the overview: the `limit` newest, in one list.',
      responses: { 200: items('parcels', 'Parcel') },
    },
    async ({ query }) => json({ parcels: await listRecentParcels({ limit: query.limit }) }),
  ),
});
