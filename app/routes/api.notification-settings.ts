import { json } from '@remix-run/node';
import {
  getNotificationSettings,
  saveNotificationSettings,
} from '~/models/notification-settings.server';
import { NotificationSettingsSchema } from '~/schemas/notification-settings';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  /** GET /api/notification-settings → {settings: {rules: [{status, enabled, template}], updatedAt}}. */
  GET: apiHandler({ role: 'viewer' }, async () =>
    json({ settings: await getNotificationSettings() }),
  ),
  /** PUT {rules: [{status, enabled, template}]} (admin) → {settings}; statuses not given keep theirs. */
  PUT: apiHandler({ role: 'admin', body: NotificationSettingsSchema }, async ({ body }) =>
    json({ settings: await saveNotificationSettings(body) }),
  ),
});
