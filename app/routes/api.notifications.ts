import { json } from '@remix-run/node';
import { listNotificationChanges, listNotifications } from '~/models/notification.server';
import { NotificationCreateSchema, NotificationListQuerySchema } from '~/schemas/notification';
import { ApiError, apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { createNotification, UnknownParcelError } from '~/services/notifications.server';

export const { loader, action } = apiRoute({
  /** GET /api/notifications?page&limit&type&status → {notifications, pagination}, newest first. */
  GET: apiHandler({ role: 'viewer', query: NotificationListQuerySchema }, async ({ query }) =>
    json(
      query.cursor || query.updatedSince
        ? await listNotificationChanges(query)
        : await listNotifications(query),
    ),
  ),
  /**
   * POST /api/notifications {type, recipient, title, message, trackingNumber} → 201
   * {notification}. The notification is stored as "pending" and its e-mail queued; the answer does
   * not wait for the mail server. A worker sends it and sets "sent", or, after MAIL_RETRY_DELAYS
   * ran out, "failed" with the server's error in emailResult.error (then POST …/:id/retry queues
   * it again). A tracking number that matches no parcel is a 400 on `trackingNumber`.
   */
  POST: apiHandler(
    { role: 'staff', idempotent: true, body: NotificationCreateSchema },
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
