import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getNotification, NotificationStateError } from '~/models/notification.server';
import { NotificationUpdateSchema } from '~/schemas/notification';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { deleteNotification } from '~/services/notifications.server';

const NOT_FOUND = 'Notification not found';

/** GET /api/notifications/:id → {notification}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'notification id');
    const notification = await getNotification(id);
    if (!notification) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { notification });
  });
}

/**
 * PUT: a notification's status follows its delivery and is never set by hand: a body with
 * `status` is a 409, and there is nothing else to change. DELETE → {notification} (failed
 * notifications only, else 409).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'notification id');
    if (request.method === 'PUT') {
      const body = await readJsonBody(request, NotificationUpdateSchema);
      const notification = await getNotification(id);
      if (!notification) throw new ApiError(404, NOT_FOUND);
      if (body.status !== undefined) {
        throw new ApiError(
          409,
          'The status of a notification follows its delivery and cannot be changed. Retry a failed one instead.',
        );
      }
      throw new ApiError(400, 'Validation failed', {
        '': ['A notification cannot be changed once created.'],
      });
    }
    let deleted;
    try {
      deleted = await deleteNotification(id, { user, context, via: 'api' });
    } catch (error) {
      if (error instanceof NotificationStateError) throw new ApiError(409, error.message);
      throw error;
    }
    if (!deleted) throw new ApiError(404, NOT_FOUND);
    return json({ notification: deleted });
  });
}
