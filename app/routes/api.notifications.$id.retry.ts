import { json } from '@remix-run/node';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { retryNotification } from '~/services/notifications.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/notifications/:id/retry → {notification}: puts a failed notification's e-mail back
   * on the queue and returns the same record, "pending" (it becomes "sent", or "failed" again with
   * the new error, when the worker is done). 409 unless the notification is failed.
   */
  POST: apiHandler(
    { role: 'staff', ids: { id: 'notification id' }, idempotent: true },
    async ({ ids, actor }) =>
      json({
        notification: await found(retryNotification(ids.id, actor), 'Notification not found'),
      }),
  ),
});
