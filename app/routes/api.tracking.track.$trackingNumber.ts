import { apiErrorResponse, handleApi } from '~/http/api.server';
import { conditionalResponse, PRIVATE_REVALIDATE } from '~/lib/http-cache.server';
import { clientAddress } from '~/lib/rate-limit.server';
import {
  lookupTrackingNumber,
  malformedTrackingNumber,
  trackingLimiter,
  trackingNumberNotFound,
} from '~/services/public-tracking.server';
import { publicApiRoute, withRateLimit } from '~/http/public-api.server';
import { declared } from '~/http/api-operation.server';

// A result may be kept by the browser but is checked every time: unchanged, it costs a 304.
// Every answer after a counted lookup says what is left of the budget.
export const { loader, action } = publicApiRoute(
  {
    GET: declared(
      {
        access: 'public',
        rateLimited: true,
        etag: true,
        summary: 'Public lookup by tracking number (no token; CORS)',
        description:
          "The public tracking result of one number, without a token and from any origin (CORS): the parcel's status, the recipient's name and town, and its events in their local time zones. An unknown number is a 404 whose code says whether it is probably mistyped (its check digit does not match).",
        responses: { 200: 'PublicTracking' },
        errors: [404, 429],
      },
      async ({ request, params, context }) => {
        const limit = await trackingLimiter.hit(clientAddress(context));
        if (!limit.allowed) {
          return withRateLimit(
            apiErrorResponse(
              429,
              'Too many tracking requests. Please wait a minute and try again.',
            ),
            limit,
          );
        }
        const response = await handleApi(async () => {
          const lookup = await lookupTrackingNumber(params.trackingNumber ?? '');
          if (lookup.kind === 'malformed') throw malformedTrackingNumber();
          if (lookup.kind === 'not-found') throw trackingNumberNotFound(lookup);
          return conditionalResponse(request, JSON.stringify(lookup.result), {
            headers: new Headers({ 'Content-Type': 'application/json; charset=utf-8' }),
          });
        });
        return withRateLimit(response, limit);
      },
    ),
  },
  { cacheControl: PRIVATE_REVALIDATE },
);
