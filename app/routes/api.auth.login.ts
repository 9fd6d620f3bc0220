import { json } from '@remix-run/node';
import { issueApiToken } from '~/models/api-token.server';
import { LoginSchema } from '~/schemas/auth';
import { ApiError, apiRoute, handleApi, readJsonBody } from '~/http/api.server';
import { checkCredentials, LoginError, loginFailures, userAddressKey } from '~/http/auth.server';
import { clientAddress, rateLimitHeaders } from '~/lib/rate-limit.server';
import { declared, example, obj, ref } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  POST: declared(
    {
      access: 'public',
      rateLimited: true,
      readsBody: LoginSchema,
      summary: 'Sign in: a bearer token for 7 days',
      description:
        'Exchanges a username and password for a bearer token valid for 7 days. Send it as `Authorization: Bearer <token>`; revoke it with POST /api/auth/logout. Failed sign-ins are limited per address and account (429 with Retry-After).',
      bodyExample: { username: 'dispatch', password: 'correct horse battery' },
      responses: {
        200: {
          schema: obj({
            token: { type: 'string' },
            expiresAt: { type: 'string', format: 'date-time' },
            user: ref('User'),
          }),
          example: {
            token: 'tok_3b7e4f0c9a2d4e6f8a1b2c3d4e5f6a7b',
            expiresAt: '2026-05-11T14:30:00.000Z',
            user: example('User'),
          },
        },
      },
      errors: [400, 401, 429],
    },
    async ({ request, context }) => {
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
  ),
});
