import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listNotificationTemplates } from '~/models/notification-template.server';
import { TEMPLATE_PLACEHOLDERS } from '~/schemas/notification-template';
import { handleApi, methodNotAllowed } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

/** GET /api/notification-templates → {templates, placeholders}: the four, stored or default. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    return json({
      templates: await listNotificationTemplates(),
      placeholders: [...TEMPLATE_PLACEHOLDERS],
    });
  });
}

export function action() {
  return methodNotAllowed(['GET']);
}
