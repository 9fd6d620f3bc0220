import { json } from '@remix-run/node';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { retryNotification } from '~/services/notifications.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'staff',
      ids: { id: 'notification id' },
      idempotent: true,
      summary: 'Send a failed notification again',
      description:
        'Queues a failed notification again and answers it, pending: it becomes sent, or failed again with the new error, when the worker is done. Any notification but a failed one is a 409.',
      responses: { 200: wrap('notification', 'Notification') },
      errors: [404, 409],
    },
    async ({ ids, actor }) =>
      json({
        notification: await found(retryNotification(ids.id, actor), 'Notification not found'),
      }),
  ),
});
