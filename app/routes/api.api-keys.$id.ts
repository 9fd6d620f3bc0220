import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getApiKey } from '~/models/api-key.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiAdmin } from '~/services/auth.server';
import { revokeApiKey } from '~/services/integrations.server';

const NOT_FOUND = 'API key not found';

/** GET /api/api-keys/:id → { apiKey } (admin). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiAdmin(request);
    const apiKey = await getApiKey(requireObjectId(params.id, 'API key id'));
    if (!apiKey) throw new ApiError(404, NOT_FOUND);
    return json({ apiKey });
  });
}

/** DELETE /api/api-keys/:id → { success, message, apiKey }: the key stops working at once (admin). */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(['GET', 'DELETE']);
    const user = await requireApiAdmin(request);
    const apiKey = await revokeApiKey(requireObjectId(params.id, 'API key id'), {
      user,
      context,
      via: 'api',
    });
    if (!apiKey) throw new ApiError(404, NOT_FOUND);
    return json({ success: true, message: `API key ${apiKey.name} revoked`, apiKey });
  });
}
