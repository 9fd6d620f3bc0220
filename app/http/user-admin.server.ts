import { apiRoute } from '~/http/api.server';
import { setUserDisabled } from '~/services/users.server';
import { ADMIN_AREA, apiRecord } from './api-handler.server';

/** One user's record in the API: the admin's. */
export const userRecord = apiRecord('user', {
  item: 'User',
  idLabel: 'user id',
  notFound: 'User not found',
});

/**
 * POST /api/users/:id/disable and /enable → { user } (admin), recorded in the audit trail: the
 * two routes are this one with `disabled` set either way. Disabling ends the user's sessions and
 * API tokens at once; 409 for the last active admin or for the admin's own account.
 */
export function userDisabledRoute(disabled: boolean) {
  return apiRoute({
    POST: userRecord.change(ADMIN_AREA, (id, actor) => setUserDisabled(id, disabled, actor), {
      ...(disabled
        ? {
            summary:
              "Disable a user, ending that user's sessions and tokens (admin); 409 for the last active admin or your own account",
            description:
              "Disables a user and ends that user's sessions and tokens at once (admin). 409 for the last active admin or your own account.",
          }
        : {
            summary: 'Enable a user again (admin)',
            description: 'Enables a disabled user again (admin): they may sign in at once.',
          }),
      errors: disabled ? [404, 409] : [404],
    }),
  });
}
