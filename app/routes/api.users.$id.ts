import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { findUserById } from '~/models/user.server';
import { UserUpdateSchema } from '~/schemas/user';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { asApiConflict } from '~/services/user-admin.server';
import { updateUser } from '~/services/users.server';

const notFound = () => new ApiError(404, 'User not found');

/** GET /api/users/:id → { user } (admin) */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    const user = await findUserById(requireObjectId(params.id, 'user id'));
    if (!user) throw notFound();
    return json({ user });
  });
}

/** PUT /api/users/:id {name?, email?, role?, password?} → { user } (admin); 409 for the last admin. */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
    const admin = await requireApiAdmin(request);
    const id = requireObjectId(params.id, 'user id');
    const input = await readJsonBody(request, UserUpdateSchema);
    const user = await asApiConflict(() =>
      updateUser(id, input, { user: admin, context, via: 'api' }),
    );
    if (!user) throw notFound();
    return json({ user });
  });
}
