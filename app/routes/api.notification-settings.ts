import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  getNotificationSettings,
  saveNotificationSettings,
} from '~/models/notification-settings.server';
import { NotificationSettingsSchema } from '~/schemas/notification-settings';
import { handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiUser, requireRole } from '~/services/auth.server';

/** GET /api/notification-settings → {settings: {rules: [{status, enabled, template}], updatedAt}}. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    return json({ settings: await getNotificationSettings() });
  });
}

/** PUT {rules: [{status, enabled, template}]} (admin) → {settings}; statuses not given keep theirs. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  return handleApi(async () => {
    const user = await requireApiUser(request);
    requireRole(user, 'admin');
    const input = await readJsonBody(request, NotificationSettingsSchema);
    return json({ settings: await saveNotificationSettings(input) });
  });
}
