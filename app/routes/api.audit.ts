import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listAudit } from '~/models/audit.server';
import { AUDIT_READERS, AuditQuerySchema } from '~/schemas/audit';
import { handleApi, methodNotAllowed, parseQuery } from '~/lib/api.server';
import { requireAdminScope, requireApiUser, requireRole } from '~/services/auth.server';

/**
 * GET /api/audit?entity&entityId&action&actor&page&limit → { entries, pagination }, newest first.
 * One record's history (entity and entityId) is open to the roles that may read the record;
 * browsing the whole trail needs the admin role. Entries cannot be changed: no other method.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const query = parseQuery(request, AuditQuerySchema);
    const one = query.entity && query.entityId ? query.entity : null;
    const needed = one ? AUDIT_READERS[one] : 'admin';
    requireRole(user, needed, 'api');
    // The whole trail, and the admin areas' records, also need an API key's admin scope.
    if (needed === 'admin') requireAdminScope(request);
    return json(await listAudit(query));
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
