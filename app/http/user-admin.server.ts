import { apiRoute } from '~/http/api.server';
import { ADMIN_AREA, apiRecord } from './api-handler.server';
import { setUserDisabled } from '~/services/users.server';

/** One user's record in the API: the admin's. */
export const userRecord = apiRecord('user', { idLabel: 'user id', notFound: 'User not found' });

/**
 * POST /api/users/:id/disable and /enable → { user } (admin), recorded in the audit trail: the
 * two routes are this one with `disabled` set either way. Disabling ends the user's sessions and
 * API tokens at once; 409 for the last active admin or for the admin's own account.
 */
export function userDisabledRoute(disabled: boolean) {
  return apiRoute({
    POST: userRecord.change(ADMIN_AREA, (id, actor) => setUserDisabled(id, disabled, actor)),
  });
}
