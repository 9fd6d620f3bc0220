import { json } from '@remix-run/node';
import { revokeApiToken } from '~/models/api-token.server';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { obj } from '~/http/api-operation.server';
import { bearerToken } from '~/http/auth.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'viewer',
      // Signing out is allowed on a temporary password, as is changing it.
      temporaryPassword: true,
      summary: 'Revoke the bearer token sent',
      description:
        'Revokes the bearer token this request carries; other tokens and API keys keep working.',
      responses: { 200: { schema: obj({ success: { const: true } }), example: { success: true } } },
    },
    async ({ request }) => {
      const token = bearerToken(request);
      if (token) await revokeApiToken(token);
      return json({ success: true });
    },
  ),
});
