import { getNotification } from '~/models/notification.server';
import { NotificationUpdateSchema } from '~/schemas/notification';
import { ApiError, apiRoute, found } from '~/http/api.server';
import { apiHandler, apiRecord } from '~/http/api-handler.server';
import { deleteNotification } from '~/services/notifications.server';

const NOT_FOUND = 'Notification not found';
const notification = apiRecord('notification', {
  idLabel: 'notification id',
  notFound: NOT_FOUND,
});

export const { loader, action } = apiRoute({
  /** GET /api/notifications/:id → {notification}. */
  GET: notification.get('viewer', getNotification),
  /**
   * PUT: a notification's status follows its delivery and is never set by hand: a body with
   * `status` is a 409, and there is nothing else to change.
   */
  PUT: apiHandler(
    { role: 'staff', ids: { id: 'notification id' }, body: NotificationUpdateSchema },
    async ({ ids, body }) => {
      await found(getNotification(ids.id), NOT_FOUND);
      if (body.status !== undefined) {
        throw new ApiError(
          409,
          'The status of a notification follows its delivery and cannot be changed. Retry a failed one instead.',
        );
      }
      throw new ApiError(400, 'Validation failed', {
        '': ['A notification cannot be changed once created.'],
      });
    },
  ),
  /** DELETE → {notification} (failed notifications only, else 409). */
  DELETE: notification.change('staff', deleteNotification),
});
