import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getNotificationTemplate, templateTypeOf } from '~/models/notification-template.server';
import { NotificationTemplateSchema } from '~/schemas/notification-template';
import { ApiError, handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiUser, requireRole } from '~/services/auth.server';
import {
  resetNotificationTemplate,
  saveNotificationTemplate,
} from '~/services/notification-templates.server';

function typeFrom(id: string | undefined) {
  const type = templateTypeOf(id ?? '');
  if (!type) throw new ApiError(404, 'Template not found');
  return type;
}

/** GET /api/notification-templates/:id (status-update, delivery-confirmation, …) → {template}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    return json({ template: await getNotificationTemplate(typeFrom(params.id)) });
  });
}

/**
 * PUT {subject, text, html?} → {template} (admin): an unknown {{placeholder}} is a 400 naming
 * the field. DELETE → {template}: back to the default template.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  return handleApi(async () => {
    const user = await requireApiUser(request);
    requireRole(user, 'admin');
    const type = typeFrom(params.id);
    const input =
      request.method === 'DELETE' ? null : await readJsonBody(request, NotificationTemplateSchema);
    const actor = { user, context, via: 'api' } as const;
    const template = input
      ? await saveNotificationTemplate(type, input, actor)
      : await resetNotificationTemplate(type, actor);
    return json({ template });
  });
}
