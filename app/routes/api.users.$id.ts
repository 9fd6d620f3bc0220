import { audit } from '~/services/audit.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { findUserById, updateUser } from '~/models/user.server';
import { UserUpdateSchema } from '~/schemas/user';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { asApiConflict } from '~/services/user-admin.server';

const notFound = () => new ApiError(404, 'User not found');

/** GET /api/users/:id → { user } (admin) */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiRole(request, 'admin');
    const user = await findUserById(requireObjectId(params.id, 'user id'));
    if (!user) throw notFound();
    return json({ user });
  });
}

/** PUT /api/users/:id {name?, email?, role?, password?} → { user } (admin); 409 for the last admin. */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
    const admin = await requireApiRole(request, 'admin');
    const id = requireObjectId(params.id, 'user id');
    const input = await readJsonBody(request, UserUpdateSchema);
    const before = await findUserById(id);
    const user = await asApiConflict(() => updateUser(id, input));
    if (!user) throw notFound();
    await audit(
      { user: admin, context, via: 'api' },
      {
        action: 'update',
        entity: 'user',
        entityId: id,
        label: user.username,
        before,
        // A new password shows as changed, never as its value.
        after: input.password ? { ...user, password: 'changed' } : user,
      },
    );
    return json({ user });
  });
}
