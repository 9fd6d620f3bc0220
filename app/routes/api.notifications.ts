import { json } from '@remix-run/node';
import { listNotificationChanges, listNotifications } from '~/models/notification.server';
import { NotificationCreateSchema, NotificationListQuerySchema } from '~/schemas/notification';
import { EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';
import { ApiError, apiRoute } from '~/http/api.server';
import { apiHandler, apiSyncedList } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { createNotification, UnknownParcelError } from '~/services/notifications.server';

export const { loader, action } = apiRoute({
  GET: apiSyncedList('viewer', {
    query: NotificationListQuerySchema,
    key: 'notifications',
    item: 'Notification',
    list: listNotifications,
    changes: listNotificationChanges,
    summary: 'List notifications, newest first',
    description:
      'Notifications (e-mails sent or queued), newest first, a page at a time; filter by type, status, tracking number or whether the rules sent it automatically.',
  }),
  /*
   * The answer does not wait for the mail server: a worker sends the e-mail and sets "sent", or,
   * after MAIL_RETRY_DELAYS ran out, "failed" with the server's error in emailResult.error.
   */
  POST: apiHandler(
    {
      role: 'staff',
      idempotent: true,
      body: NotificationCreateSchema,
      summary: 'Send an e-mail notification (201 even when sending failed)',
      description:
        'Queues an e-mail about a parcel to the address given. The answer is 201 with status pending; the notification becomes sent or failed once the mail server answers (notification.sent / notification.failed webhooks), and a failed one is queued again by POST /api/notifications/{id}/retry. A tracking number that matches no parcel is a 400 on `trackingNumber`.',
      bodyExample: {
        type: 'Status Update',
        recipient: 'ada@example.com',
        title: 'Your parcel is on its way',
        message: 'It arrived at our Chicago hub.',
        trackingNumber: EXAMPLE_TRACKING_NUMBER,
      },
      responses: { 201: wrap('notification', 'Notification') },
    },
    async ({ body, actor }) => {
      try {
        return json({ notification: await createNotification(body, actor) }, { status: 201 });
      } catch (error) {
        if (!(error instanceof UnknownParcelError)) throw error;
        throw new ApiError(400, 'Validation failed', { trackingNumber: [error.message] });
      }
    },
  ),
});
