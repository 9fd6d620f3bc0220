import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listAudit } from '~/models/audit.server';
import { AuditQuerySchema } from '~/schemas/audit';
import { handleApi, methodNotAllowed, parseQuery } from '~/lib/api.server';
import { requireApiUser, requireRole } from '~/services/auth.server';

/**
 * GET /api/audit?entity&entityId&action&actor&page&limit → { entries, pagination }, newest first.
 * One record's history (entity and entityId) is open to every role, as the parcel's History view
 * is; browsing the whole trail needs the admin role. Entries cannot be changed: no other method.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const query = parseQuery(request, AuditQuerySchema);
    if (!(query.entity && query.entityId)) requireRole(user, 'admin', 'api');
    return json(await listAudit(query));
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
