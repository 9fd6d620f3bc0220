import { json } from '@remix-run/node';
import { listRecentParcels } from '~/models/dashboard.server';
import { RecentParcelsQuerySchema } from '~/schemas/dashboard';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer', query: RecentParcelsQuerySchema }, async ({ query }) =>
    json({ parcels: await listRecentParcels({ limit: query.limit }) }),
  ),
});
