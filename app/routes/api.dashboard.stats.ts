import { json } from '@remix-run/node';
import { getDashboardStats } from '~/models/dashboard.server';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: { role: 'viewer', office: true },
      summary: 'Overview figures',
      description:
        "The overview's figures: parcel counts and revenue, and their change from last month.",
      responses: { 200: 'DashboardStats' },
    },
    async () => json(await getDashboardStats()),
  ),
});
