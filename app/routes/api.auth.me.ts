import { json } from '@remix-run/node';
import { apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer' }, ({ actor }) => json({ user: actor.user })),
});
