import { json } from '@remix-run/node';
import { getDashboardStats } from '~/models/dashboard.server';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer' }, async () => json(await getDashboardStats())),
});
