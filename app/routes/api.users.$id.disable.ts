import { userDisabledRoute } from '~/http/user-admin.server';

/** POST /api/users/:id/disable → { user } (admin); see userDisabledRoute. */
export const { loader, action } = userDisabledRoute(true);
