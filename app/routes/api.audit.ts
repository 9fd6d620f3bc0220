import { json } from '@remix-run/node';
import { listAudit } from '~/models/audit.server';
import { AUDIT_READERS, AuditQuerySchema } from '~/schemas/audit';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { requireAdminScope, requireRole } from '~/http/auth.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/audit?entity&entityId&action&actor&page&limit → { entries, pagination }, newest
   * first. One record's history (entity and entityId) is open to the roles that may read the
   * record; browsing the whole trail needs the admin role. Entries cannot be changed: no other
   * method.
   */
  GET: apiHandler(
    { role: 'viewer', query: AuditQuerySchema },
    async ({ request, query, actor }) => {
      const one = query.entity && query.entityId ? query.entity : null;
      const needed = one ? AUDIT_READERS[one] : 'admin';
      requireRole(actor.user, needed, 'api');
      // The whole trail, and the admin areas' records, also need an API key's admin scope.
      if (needed === 'admin') requireAdminScope(request);
      return json(await listAudit(query));
    },
  ),
});
