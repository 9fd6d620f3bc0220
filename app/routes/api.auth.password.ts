import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { PasswordChangeApiSchema } from '~/schemas/user';
import { ApiError, handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { madeWithApiKey, requestCredential, requireApiUser } from '~/services/auth.server';
import { changePassword } from '~/services/users.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/auth/password {currentPassword, newPassword} → { user }: changes the caller's own
 * password, the one thing an account on a temporary password may do. The token sent keeps working;
 * every other login token and staff session of the user ends.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const user = await requireApiUser(request, { allowTemporaryPassword: true });
    if (madeWithApiKey(request))
      throw new ApiError(403, 'An API key has no password: sign in for a token to change it');
    const input = await readJsonBody(request, PasswordChangeApiSchema);
    const keep = await requestCredential(request);
    const changed = await changePassword(input, keep, { user, context, via: 'api' });
    if (!changed)
      throw new ApiError(400, 'Validation failed', {
        currentPassword: ['The current password is wrong'],
      });
    return json({ user: changed });
  });
}
