import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary: 'The signed-in user',
      description: 'The user the credential belongs to (for an API key, the admin who created it).',
      responses: { 200: wrap('user', 'User') },
    },
    ({ actor }) => json({ user: actor.user }),
  ),
});
