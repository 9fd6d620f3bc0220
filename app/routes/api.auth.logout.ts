import { json } from '@remix-run/node';
import { revokeApiToken } from '~/models/api-token.server';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { bearerToken } from '~/http/auth.server';

export const { loader, action } = apiRoute({
  // Signing out is allowed on a temporary password, as is changing it.
  POST: apiHandler({ role: 'viewer', temporaryPassword: true }, async ({ request }) => {
    const token = bearerToken(request);
    if (token) await revokeApiToken(token);
    return json({ success: true });
  }),
});
