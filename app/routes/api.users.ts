import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listUsers } from '~/models/user.server';
import { UserCreateSchema } from '~/schemas/user';
import { handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { asApiConflict } from '~/services/user-admin.server';
import { addUser } from '~/services/users.server';

/** GET /api/users → { users } (admin) */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    return json({ users: await listUsers() });
  });
}

/**
 * POST /api/users {username, name, email, role, password?} → 201 { user } (admin). Without a
 * password the answer also carries `temporaryPassword`, shown this once; the user must change it
 * at the first sign-in. 409 when the username is taken.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const admin = await requireApiAdmin(request);
    const input = await readJsonBody(request, UserCreateSchema);
    const created = await asApiConflict(() => addUser(input, { user: admin, context, via: 'api' }));
    return json(created, { status: 201, headers: { 'Cache-Control': 'no-store' } });
  });
}
