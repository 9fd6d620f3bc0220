import { findUserById } from '~/models/user.server';
import { UserUpdateSchema } from '~/schemas/user';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA } from '~/http/api-handler.server';
import { userRecord as user } from '~/http/user-admin.server';
import { updateUser } from '~/services/users.server';

/** Users are the admin's. */
export const { loader, action } = apiRoute({
  GET: user.get(ADMIN_AREA, findUserById, {
    etag: false,
    summary: 'One user (admin)',
    description: 'One user, with their role and whether they are disabled (admin).',
  }),
  PUT: user.update(ADMIN_AREA, UserUpdateSchema, updateUser, {
    summary:
      "Change a user: name, e-mail, role, password (admin); a new password ends the user's sessions and login tokens",
    description:
      "Changes a user's name, e-mail, role or password (admin); a new password ends the user's sessions and login tokens. 409 for a change that would leave no active admin.",
    bodyExample: { role: 'viewer' },
    errors: [404, 409],
  }),
});
