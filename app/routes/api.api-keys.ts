import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { createApiKey, listApiKeys } from '~/models/api-key.server';
import { ApiKeyCreateSchema } from '~/schemas/integrations';
import { handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { auditRecord } from '~/services/audit.server';
import { requireApiUser, requireRole } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';

/** GET /api/api-keys → { apiKeys } newest first (admin). */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    requireRole(await requireApiUser(request), 'admin');
    return json({ apiKeys: await listApiKeys() });
  });
}

/** POST /api/api-keys { name, scopes } → 201 { apiKey, key }: the key is shown this once (admin). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiUser(request);
    requireRole(user, 'admin');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, ApiKeyCreateSchema);
      const created = await createApiKey(input, user.id);
      await auditRecord({ user, context, via: 'api' }, 'create', 'key', {
        label: created.apiKey.name,
        after: created.apiKey,
      });
      return json(created, { status: 201 });
    });
  });
}
