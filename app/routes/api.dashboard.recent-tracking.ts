import { json } from '@remix-run/node';
import { listRecentTrackingEvents } from '~/models/dashboard.server';
import { RecentTrackingQuerySchema } from '~/schemas/dashboard';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { items } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      query: RecentTrackingQuerySchema,
      summary: 'Newest tracking events',
      description:
        "The newest tracking events, with their parcels' tracking numbers: the `limit` newest, in one list.",
      responses: { 200: items('events', 'RecentTrackingEvent') },
    },
    async ({ query }) => json({ events: await listRecentTrackingEvents({ limit: query.limit }) }),
  ),
});
