import { json } from '@remix-run/node';
import { PasswordChangeApiSchema } from '~/schemas/user';
import { ApiError, apiRoute, readJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { madeWithApiKey, requestCredential } from '~/http/auth.server';
import { changePassword } from '~/services/users.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'viewer',
      temporaryPassword: true,
      readsBody: PasswordChangeApiSchema,
      summary:
        'Change your own password: the token sent keeps working, every other login token and session of yours ends. The one request (with logout) an account on a temporary password may make: everything else answers 403 with code password_change_required. Not with an API key',
      description:
        'Changes your own password. The token sent keeps working; every other login token and session of yours ends. With logout, the one request an account on a temporary password may make: everything else answers 403 with code password_change_required. Not with an API key (403).',
      bodyExample: { currentPassword: 'Temp-4821-kq', newPassword: 'a longer passphrase' },
      responses: { 200: wrap('user', 'User') },
    },
    async ({ request, actor }) => {
      if (madeWithApiKey(request))
        throw new ApiError(403, 'An API key has no password: sign in for a token to change it');
      const input = await readJsonBody(request, PasswordChangeApiSchema);
      const changed = await changePassword(input, await requestCredential(request), actor);
      if (!changed)
        throw new ApiError(400, 'Validation failed', {
          currentPassword: ['The current password is wrong'],
        });
      return json({ user: changed });
    },
  ),
});
