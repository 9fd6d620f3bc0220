import type { ActionFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '~/lib/api.server';
import { setUserDisabledAction } from '~/services/user-admin.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/** POST /api/users/:id/enable → { user } (admin); see setUserDisabledAction. */
export function action(args: ActionFunctionArgs) {
  return setUserDisabledAction(args, false);
}
