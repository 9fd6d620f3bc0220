import { audit } from '~/services/audit.server';
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
 * POST /api/users/:id/enable → { user } (admin).
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const admin = await requireApiRole(request, 'admin');
    const id = requireObjectId(params.id, 'user id');
    const user = await asApiConflict(() => setUserDisabled(id, false));
    if (!user) throw new ApiError(404, 'User not found');
    await audit(
      { user: admin, context, via: 'api' },
      {
        action: 'update',
        entity: 'user',
        entityId: id,
        label: user.username,
        before: { disabled: !user.disabled },
        after: { disabled: user.disabled },
      },
    );
    return json({ user });
  });
}
