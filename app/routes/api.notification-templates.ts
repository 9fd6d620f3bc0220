import { json } from '@remix-run/node';
import { listNotificationTemplates } from '~/models/notification-template.server';
import { TEMPLATE_PLACEHOLDERS } from '~/schemas/notification-template';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  /** GET /api/notification-templates → {templates, placeholders}: the four, stored or default. */
  GET: apiHandler({ role: 'viewer' }, async () =>
    json({
      templates: await listNotificationTemplates(),
      placeholders: [...TEMPLATE_PLACEHOLDERS],
    }),
  ),
});
