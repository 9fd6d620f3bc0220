import { json } from '@remix-run/node';
import { listUsers } from '~/models/user.server';
import { UserCreateSchema } from '~/schemas/user';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiEvery, apiHandler } from '~/http/api-handler.server';
import { example, obj, ref } from '~/http/api-operation.server';
import { addUser } from '~/services/users.server';

/** Users are the admin's. */
export const { loader, action } = apiRoute({
  GET: apiEvery(ADMIN_AREA, 'users', 'User', listUsers, {
    summary: 'List users (admin)',
    description: 'Every user, with their role and whether they are disabled (admin).',
  }),
  POST: apiHandler(
    {
      role: ADMIN_AREA,
      body: UserCreateSchema,
      summary:
        'Add a user; without a password the answer carries a temporaryPassword, shown once (admin)',
      description:
        'Adds a user (admin). Without a password the answer carries a temporaryPassword, shown once; the user must change it before anything else. 409 when the username is taken.',
      bodyExample: {
        username: 'dispatch',
        name: 'Dispatch Desk',
        email: 'dispatch@example.com',
        role: 'staff',
      },
      responses: {
        201: {
          schema: obj({ user: ref('User'), temporaryPassword: { type: 'string' } }, ['user']),
          example: { user: example('User'), temporaryPassword: 'Temp-4821-kq' },
        },
      },
      errors: [409],
    },
    async ({ body, actor }) =>
      json(await addUser(body, actor), { status: 201, headers: { 'Cache-Control': 'no-store' } }),
  ),
});
