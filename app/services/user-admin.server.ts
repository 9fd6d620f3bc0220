import { json, type ActionFunctionArgs } from '@remix-run/node';
import { UserConflictError } from '~/models/user.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiAdmin } from './auth.server';
import { setUserDisabled } from './users.server';

/** A UserConflictError (taken username, last admin) as the API's 409. */
export async function asApiConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof UserConflictError) throw new ApiError(409, error.message);
    throw error;
  }
}

/**
 * POST /api/users/:id/disable and /enable → { user } (admin), recorded in the audit trail.
 * Disabling ends the user's sessions and API tokens at once; 409 for the last active admin or
 * for the admin's own account.
 */
export function setUserDisabledAction(
  { request, params, context }: ActionFunctionArgs,
  disabled: boolean,
) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const admin = await requireApiAdmin(request);
    const id = requireObjectId(params.id, 'user id');
    const user = await asApiConflict(() =>
      setUserDisabled(id, disabled, { user: admin, context, via: 'api' }),
    );
    if (!user) throw new ApiError(404, 'User not found');
    return json({ user });
  });
}
