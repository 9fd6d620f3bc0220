import { json } from '@remix-run/node';
import { getNotificationTemplate, templateTypeOf } from '~/models/notification-template.server';
import { NotificationTemplateSchema } from '~/schemas/notification-template';
import { ApiError, apiRoute, readJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import {
  resetNotificationTemplate,
  saveNotificationTemplate,
} from '~/services/notification-templates.server';

function typeFrom(id: string | undefined) {
  const type = templateTypeOf(id ?? '');
  if (!type) throw new ApiError(404, 'Template not found');
  return type;
}

export const { loader, action } = apiRoute({
  /** GET /api/notification-templates/:id (status-update, delivery-confirmation, …) → {template}. */
  GET: apiHandler({ role: 'viewer' }, async ({ params }) =>
    json({ template: await getNotificationTemplate(typeFrom(params.id)) }),
  ),
  /**
   * PUT {subject, text, html?} → {template} (admin): an unknown {{placeholder}} is a 400 naming
   * the field. The template is looked for before the body is read: an unknown one is a 404.
   */
  PUT: apiHandler({ role: 'admin' }, async ({ request, params, actor }) => {
    const type = typeFrom(params.id);
    const input = await readJsonBody(request, NotificationTemplateSchema);
    return json({ template: await saveNotificationTemplate(type, input, actor) });
  }),
  /** DELETE → {template}: back to the default template (admin). */
  DELETE: apiHandler({ role: 'admin' }, async ({ params, actor }) =>
    json({ template: await resetNotificationTemplate(typeFrom(params.id), actor) }),
  ),
});
