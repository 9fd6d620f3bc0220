import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { NotificationStateError } from '~/models/notification.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { retryNotification } from '~/services/notifications.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/notifications/:id/retry → {notification}: puts a failed notification's e-mail back on
 * the queue and returns the same record, "pending" (it becomes "sent", or "failed" again with the
 * new error, when the worker is done). 409 unless the notification is failed.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'notification id');
    return idempotent(request, async () => {
      try {
        const notification = await retryNotification(id, { user, context, via: 'api' });
        if (!notification) throw new ApiError(404, 'Notification not found');
        return json({ notification });
      } catch (error) {
        if (error instanceof NotificationStateError) throw new ApiError(409, error.message);
        throw error;
      }
    });
  });
}
