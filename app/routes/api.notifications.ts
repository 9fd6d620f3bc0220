import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listNotifications } from '~/models/notification.server';
import { NotificationCreateSchema, NotificationListQuerySchema } from '~/schemas/notification';
import { ApiError, handleApi, methodNotAllowed, parseQuery, readJsonBody } from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { createNotification, UnknownParcelError } from '~/services/notifications.server';

/** GET /api/notifications?page&limit&type&status → {notifications, pagination}, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const query = parseQuery(request, NotificationListQuerySchema);
    return json(await listNotifications(query));
  });
}

/**
 * POST /api/notifications {type, recipient, title, message, trackingNumber} → 201 {notification}.
 * The notification is stored as "pending" and its e-mail queued; the answer does not wait for
 * the mail server. A worker sends it and sets "sent", or, after MAIL_RETRY_DELAYS ran out,
 * "failed" with the server's error in emailResult.error (then POST …/:id/retry queues it again).
 * A tracking number that matches no parcel is a 400 on `trackingNumber`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, NotificationCreateSchema);
      try {
        const notification = await createNotification(input, { user, context, via: 'api' });
        return json({ notification }, { status: 201 });
      } catch (error) {
        if (error instanceof UnknownParcelError) {
          throw new ApiError(400, 'Validation failed', { trackingNumber: [error.message] });
        }
        throw error;
      }
    });
  });
}
