import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiHandler({ role: 'viewer' }, ({ actor }) => json({ user: actor.user })),
});
