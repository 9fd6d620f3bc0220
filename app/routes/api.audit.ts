import { json } from '@remix-run/node';
import { listAudit } from '~/models/audit.server';
import { AUDIT_READERS, AuditQuerySchema } from '~/schemas/audit';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { list } from '~/http/api-operation.server';
import { requireAdminScope, requireRole } from '~/http/auth.server';

export const { loader, action } = apiRoute({
  // Entries cannot be changed: no other method.
  GET: apiHandler(
    {
      role: 'viewer',
      query: AuditQuerySchema,
      summary:
        "Audit entries, newest first; one record's history (entity and entityId) for the roles that may read the record (users, API keys, webhooks: admins, with an API key's admin scope; inbox items: staff), everything for admins (with the admin scope)",
      description:
        "Audit entries, newest first, a page at a time: who changed what, when, from where, field by field. One record's history (entity and entityId) for the roles that may read the record; everything for admins (an API key needs the admin scope).",
      responses: { 200: list('entries', 'AuditEntry') },
    },
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
