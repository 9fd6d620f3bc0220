import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  deleteNotification,
  getNotification,
  NotificationStateError,
  updateNotificationStatus,
} from '~/models/notification.server';
import { NotificationStatusUpdateSchema } from '~/schemas/notification';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/services/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';

const NOT_FOUND = 'Notification not found';

/** GET /api/notifications/:id → {notification}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'notification id');
    const notification = await getNotification(id);
    if (!notification) throw new ApiError(404, NOT_FOUND);
    return json({ notification });
  });
}

/** PUT {status} → {notification}; DELETE → {notification} (failed notifications only, else 409). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  return handleApi(async () => {
    await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'notification id');
    if (request.method === 'PUT') {
      const { status } = await readJsonBody(request, NotificationStatusUpdateSchema);
      const notification = await updateNotificationStatus(id, status);
      if (!notification) throw new ApiError(404, NOT_FOUND);
      return json({ notification });
    }
    const existing = await getNotification(id);
    if (!existing) throw new ApiError(404, NOT_FOUND);
    try {
      if (!(await deleteNotification(id))) throw new ApiError(404, NOT_FOUND);
    } catch (error) {
      if (error instanceof NotificationStateError) throw new ApiError(409, error.message);
      throw error;
    }
    return json({ notification: existing });
  });
}
