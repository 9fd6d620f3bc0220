import { json } from '@remix-run/node';
import { getDashboardStats } from '~/models/dashboard.server';
import { apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer' }, async () => json(await getDashboardStats())),
});
