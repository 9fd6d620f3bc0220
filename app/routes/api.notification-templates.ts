import { json } from '@remix-run/node';
import { listNotificationTemplates } from '~/models/notification-template.server';
import { TEMPLATE_PLACEHOLDERS } from '~/schemas/notification-template';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { example, obj, ref } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary: 'The four e-mail templates',
      description:
        'The four e-mail templates (stored or default) and the placeholders they may use, in one list.',
      responses: {
        200: {
          schema: obj({
            templates: { type: 'array', items: ref('NotificationTemplate') },
            placeholders: { type: 'array', items: { type: 'string' } },
          }),
          example: {
            templates: [example('NotificationTemplate')],
            placeholders: [...TEMPLATE_PLACEHOLDERS],
          },
        },
      },
    },
    async () =>
      json({
        templates: await listNotificationTemplates(),
        placeholders: [...TEMPLATE_PLACEHOLDERS],
      }),
  ),
});
