import { json } from '@remix-run/node';
import { listUsers } from '~/models/user.server';
import { UserCreateSchema } from '~/schemas/user';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiHandler } from '~/http/api-handler.server';
import { addUser } from '~/services/users.server';

/** Users are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/users → { users } */
  GET: apiHandler({ role: ADMIN_AREA }, async () => json({ users: await listUsers() })),
  /**
   * POST /api/users {username, name, email, role, password?} → 201 { user }. Without a password
   * the answer also carries `temporaryPassword`, shown this once; the user must change it at the
   * first sign-in. 409 when the username is taken.
   */
  POST: apiHandler({ role: ADMIN_AREA, body: UserCreateSchema }, async ({ body, actor }) =>
    json(await addUser(body, actor), { status: 201, headers: { 'Cache-Control': 'no-store' } }),
  ),
});
