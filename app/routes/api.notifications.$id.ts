import { getNotification } from '~/models/notification.server';
import { NotificationUpdateSchema } from '~/schemas/notification';
import { ApiError, apiRoute, found } from '~/http/api.server';
import { apiHandler, apiRecord } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { deleteNotification } from '~/services/notifications.server';

const NOT_FOUND = 'Notification not found';
const notification = apiRecord('notification', {
  item: 'Notification',
  idLabel: 'notification id',
  notFound: NOT_FOUND,
});

export const { loader, action } = apiRoute({
  GET: notification.get('viewer', getNotification, {
    summary: 'One notification',
    description: 'One notification, with its delivery result.',
  }),
  PUT: apiHandler(
    {
      role: 'staff',
      ids: { id: 'notification id' },
      body: NotificationUpdateSchema,
      summary: 'Refused: the status follows the delivery (409 with a status; 400 otherwise)',
      description:
        "A notification's status follows its delivery and cannot be set: a body with a status is a 409, any other body a 400.",
      bodyExample: { status: 'sent' },
      responses: { 200: wrap('notification', 'Notification') },
      errors: [400, 404, 409],
    },
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
  DELETE: notification.change('staff', deleteNotification, {
    summary: 'Delete a failed notification',
    description: 'Deletes a failed notification; any other is a 409.',
    errors: [404, 409],
  }),
});
