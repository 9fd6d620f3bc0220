import { json } from '@remix-run/node';
import { getNotificationTemplate, templateTypeOf } from '~/models/notification-template.server';
import { NotificationTemplateSchema } from '~/schemas/notification-template';
import { ApiError, apiRoute, readJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import {
  resetNotificationTemplate,
  saveNotificationTemplate,
} from '~/services/notification-templates.server';

function typeFrom(id: string | undefined) {
  const type = templateTypeOf(id ?? '');
  if (!type) throw new ApiError(404, 'Template not found');
  return type;
}

const template = { responses: { 200: wrap('template', 'NotificationTemplate') }, errors: [404] };

// :id is the template's key: status-update, delivery-confirmation, pickup-confirmation, custom.
export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary:
        'One e-mail template (status-update, delivery-confirmation, pickup-confirmation, custom)',
      description: 'One e-mail template by its key, stored or default.',
      ...template,
    },
    async ({ params }) => json({ template: await getNotificationTemplate(typeFrom(params.id)) }),
  ),
  // The template is looked for before the body is read: an unknown one is a 404.
  PUT: apiHandler(
    {
      role: 'admin',
      readsBody: NotificationTemplateSchema,
      summary: 'Change an e-mail template; unknown placeholders are refused (admin)',
      description:
        'Changes an e-mail template (admin); an unknown {{placeholder}} is a 400 naming the field.',
      bodyExample: {
        subject: 'Update on {{trackingNumber}}',
        text: 'Your parcel {{trackingNumber}} is now {{status}}.',
      },
      ...template,
    },
    async ({ request, params, actor }) => {
      const type = typeFrom(params.id);
      const input = await readJsonBody(request, NotificationTemplateSchema);
      return json({ template: await saveNotificationTemplate(type, input, actor) });
    },
  ),
  DELETE: apiHandler(
    {
      role: 'admin',
      summary: 'Reset an e-mail template to the default (admin)',
      description: 'Resets an e-mail template to its default (admin).',
      ...template,
    },
    async ({ params, actor }) =>
      json({ template: await resetNotificationTemplate(typeFrom(params.id), actor) }),
  ),
});
