import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listApiKeys } from '~/models/api-key.server';
import { ApiKeyCreateSchema } from '~/schemas/integrations';
import { handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { issueApiKey } from '~/services/integrations.server';

/** GET /api/api-keys → { apiKeys } newest first (admin). */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    return json({ apiKeys: await listApiKeys() });
  });
}

/** POST /api/api-keys { name, scopes } → 201 { apiKey, key }: the key is shown this once (admin). */
export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiAdmin(request);
    return idempotent(request, async () => {
      const input = await readJsonBody(request, ApiKeyCreateSchema);
      const created = await issueApiKey(input, { user, context, via: 'api' });
      return json(created, { status: 201 });
    });
  });
}
