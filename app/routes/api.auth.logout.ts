import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { revokeApiToken } from '~/models/api-token.server';
import { handleApi, methodNotAllowed } from '~/lib/api.server';
import { bearerToken, requireApiUser } from '~/services/auth.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    // Signing out is allowed on a temporary password, as is changing it.
    await requireApiUser(request, { allowTemporaryPassword: true });
    const token = bearerToken(request);
    if (token) await revokeApiToken(token);
    return json({ success: true });
  });
}
