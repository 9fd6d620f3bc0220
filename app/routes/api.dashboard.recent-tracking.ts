import { json } from '@remix-run/node';
import { listRecentTrackingEvents } from '~/models/dashboard.server';
import { RecentTrackingQuerySchema } from '~/schemas/dashboard';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer', query: RecentTrackingQuerySchema }, async ({ query }) =>
    json({ events: await listRecentTrackingEvents({ limit: query.limit }) }),
  ),
});
