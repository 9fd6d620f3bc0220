import { findUserById } from '~/models/user.server';
import { UserUpdateSchema } from '~/schemas/user';
import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA } from '~/http/api-handler.server';
import { userRecord as user } from '~/http/user-admin.server';
import { updateUser } from '~/services/users.server';

/** Users are the admin's. */
export const { loader, action } = apiRoute({
  /** GET /api/users/:id → { user } */
  GET: user.get(ADMIN_AREA, findUserById, { etag: false }),
  /** PUT /api/users/:id {name?, email?, role?, password?} → { user }; 409 for the last admin. */
  PUT: user.update(ADMIN_AREA, UserUpdateSchema, updateUser),
});
