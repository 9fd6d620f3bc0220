import { json } from '@remix-run/node';
import { issueApiToken } from '~/models/api-token.server';
import { LoginSchema } from '~/schemas/auth';
import { ApiError, apiRoute, handleApi, readJsonBody } from '~/http/api.server';
import { checkCredentials, LoginError, loginFailures, userAddressKey } from '~/http/auth.server';
import { clientAddress, rateLimitHeaders } from '~/lib/rate-limit.server';

export const { loader, action } = apiRoute({
  POST: async ({ request, context }) => {
    const address = clientAddress(context);
    let username: string | null = null;
    const response = await handleApi(async () => {
      const body = await readJsonBody(request, LoginSchema);
      username = body.username.toLowerCase();
      try {
        const user = await checkCredentials(body, address);
        const { token, expiresAt } = await issueApiToken(user.id);
        return json({ token, expiresAt: expiresAt.toISOString(), user });
      } catch (error) {
        if (!(error instanceof LoginError)) throw error;
        if (error.kind === 'locked') {
          throw new ApiError(429, error.message, undefined, {
            headers: { 'Retry-After': String(error.retryAfterSeconds) },
          });
        }
        if (error.kind === 'validation')
          throw new ApiError(400, 'Validation failed', error.fieldErrors);
        throw new ApiError(401, 'Invalid credentials');
      }
    });
    // Sign-in is limited by failures: every answer says how many this username may still have
    // from this address (or, without a username, this address across usernames) before a lockout.
    const limit = await (
      username
        ? loginFailures.userAddress.peek(userAddressKey(username, address))
        : loginFailures.address.peek(address)
    ).catch(() => null);
    if (limit) {
      const headers = rateLimitHeaders(limit);
      for (const [name, value] of Object.entries(headers))
        if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  },
});
