import { userDisabledRoute } from '~/http/user-admin.server';

/** POST /api/users/:id/enable → { user } (admin); see userDisabledRoute. */
export const { loader, action } = userDisabledRoute(false);
