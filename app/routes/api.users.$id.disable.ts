import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { setUserDisabled } from '~/models/user.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/services/api.server';
import { requireApiRole } from '~/services/auth.server';
import { asApiConflict } from '~/services/user-admin.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/users/:id/disable → { user } (admin). Ends the user's sessions and API tokens at
 * once; 409 for the last active admin.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    await requireApiRole(request, 'admin');
    const id = requireObjectId(params.id, 'user id');
    const user = await asApiConflict(() => setUserDisabled(id, true));
    if (!user) throw new ApiError(404, 'User not found');
    return json({ user });
  });
}
