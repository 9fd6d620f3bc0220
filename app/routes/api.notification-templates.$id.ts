import { json } from '@remix-run/node';
import { getNotificationTemplate, templateTypeOf } from '~/models/notification-template.server';
import {
  NotificationTemplateSchema,
  TemplateLanguageQuerySchema,
} from '~/schemas/notification-template';
import type { Language } from '~/schemas/languages';
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

const template = {
  query: TemplateLanguageQuerySchema,
  responses: { 200: wrap('template', 'NotificationTemplate') },
  errors: [404],
};

// :id is the template's key: status-update, delivery-confirmation, pickup-confirmation, custom.
export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary:
        'One e-mail template (status-update, delivery-confirmation, pickup-confirmation, custom)',
      description:
        "One e-mail template by its key, stored or default, in ?language= (English by default); a language without its own version answers English's with translated: false.",
      ...template,
    },
    async ({ params, query }) =>
      json({
        template: await getNotificationTemplate(typeFrom(params.id), query.language as Language),
      }),
  ),
  // The template is looked for before the body is read: an unknown one is a 404.
  PUT: apiHandler(
    {
      role: 'admin',
      readsBody: NotificationTemplateSchema,
      summary: 'Change an e-mail template; unknown placeholders are refused (admin)',
      description:
        'Changes an e-mail template in ?language= (English by default; admin); the placeholders are the same in every language, and an unknown {{placeholder}} is a 400 naming the field.',
      bodyExample: {
        subject: 'Update on {{trackingNumber}}',
        text: 'Your parcel {{trackingNumber}} is now {{status}}.',
      },
      ...template,
    },
    async ({ request, params, actor, query }) => {
      const type = typeFrom(params.id);
      const input = await readJsonBody(request, NotificationTemplateSchema);
      const language = query.language as Language;
      return json({ template: await saveNotificationTemplate(type, input, actor, language) });
    },
  ),
  DELETE: apiHandler(
    {
      role: 'admin',
      summary: 'Reset an e-mail template to the default (admin)',
      description:
        "Resets an e-mail template in ?language= to its default (admin): as shipped in that language, else English's.",
      ...template,
    },
    async ({ params, actor, query }) =>
      json({
        template: await resetNotificationTemplate(
          typeFrom(params.id),
          actor,
          query.language as Language,
        ),
      }),
  ),
});
