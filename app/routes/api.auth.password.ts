import { json } from '@remix-run/node';
import { PasswordChangeApiSchema } from '~/schemas/user';
import { ApiError, apiRoute, readJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { madeWithApiKey, requestCredential } from '~/http/auth.server';
import { changePassword } from '~/services/users.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/auth/password {currentPassword, newPassword} → { user }: changes the caller's own
   * password, the one thing an account on a temporary password may do. The token sent keeps
   * working; every other login token and staff session of the user ends.
   */
  POST: apiHandler({ role: 'viewer', temporaryPassword: true }, async ({ request, actor }) => {
    if (madeWithApiKey(request))
      throw new ApiError(403, 'An API key has no password: sign in for a token to change it');
    const input = await readJsonBody(request, PasswordChangeApiSchema);
    const changed = await changePassword(input, await requestCredential(request), actor);
    if (!changed)
      throw new ApiError(400, 'Validation failed', {
        currentPassword: ['The current password is wrong'],
      });
    return json({ user: changed });
  }),
});
