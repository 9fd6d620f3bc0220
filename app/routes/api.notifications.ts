import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { createAndSendNotification, listNotifications } from '~/models/notification.server';
import { NotificationCreateSchema, NotificationListQuerySchema } from '~/schemas/notification';
import { handleApi, methodNotAllowed, parseQuery, readJsonBody } from '~/services/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';

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
 * The e-mail is sent before answering; when the mail server refuses or times out the
 * notification is still created (201) with status "failed" and the error in emailResult.error,
 * ready for POST /api/notifications/:id/retry.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  return handleApi(async () => {
    await requireApiRole(request, 'staff');
    const input = await readJsonBody(request, NotificationCreateSchema);
    const notification = await createAndSendNotification(input);
    return json({ notification }, { status: 201 });
  });
}
