import { json } from '@remix-run/node';
import { revokeApiToken } from '~/models/api-token.server';
import { apiRoute } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';
import { bearerToken } from '~/services/auth.server';

export const { loader, action } = apiRoute({
  // Signing out is allowed on a temporary password, as is changing it.
  POST: apiHandler({ role: 'viewer', temporaryPassword: true }, async ({ request }) => {
    const token = bearerToken(request);
    if (token) await revokeApiToken(token);
    return json({ success: true });
  }),
});
