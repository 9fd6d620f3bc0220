import type { ActionFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { issueApiToken } from '~/models/api-token.server';
import { LoginSchema } from '~/schemas/auth';
import { ApiError, handleApi, methodNotAllowed, readJsonBody } from '~/services/api.server';
import { checkCredentials, LoginError } from '~/services/auth.server';
import { clientAddress } from '~/services/rate-limit.server';

export function loader() {
  return methodNotAllowed(['POST']);
}

export function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const body = await readJsonBody(request, LoginSchema);
    try {
      const user = await checkCredentials(body, clientAddress(context));
      const { token, expiresAt } = await issueApiToken(user.id);
      return json({ token, expiresAt: expiresAt.toISOString(), user });
    } catch (error) {
      if (!(error instanceof LoginError)) throw error;
      if (error.kind === 'locked') {
        throw new ApiError(429, error.message, undefined, {
          'Retry-After': String(error.retryAfterSeconds),
        });
      }
      if (error.kind === 'validation')
        throw new ApiError(400, 'Validation failed', error.fieldErrors);
      throw new ApiError(401, 'Invalid credentials');
    }
  });
}
