import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { NotificationStateError, retryNotification } from '~/models/notification.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/services/api.server';
import { requireApiRole } from '~/services/auth.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/notifications/:id/retry → {notification}: re-sends a failed notification and
 * returns the same record with the new result ("sent", or "failed" with the new error).
 * 409 unless the notification is failed.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return handleApi(async () => {
    await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'notification id');
    try {
      const notification = await retryNotification(id);
      if (!notification) throw new ApiError(404, 'Notification not found');
      return json({ notification });
    } catch (error) {
      if (error instanceof NotificationStateError) throw new ApiError(409, error.message);
      throw error;
    }
  });
}
