import { json } from '@remix-run/node';
import { TrackingBatchSchema } from '~/schemas/public-tracking';
import { apiErrorResponse, handleApi, readJsonBody } from '~/http/api.server';
import { clientAddress, type RateLimitResult } from '~/lib/rate-limit.server';
import {
  lookupTrackingNumbers,
  toBatchEntry,
  trackingLimiter,
} from '~/services/public-tracking.server';
import { publicApiRoute, withRateLimit } from '~/http/public-api.server';
import { declared } from '~/http/api-operation.server';
import { EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';

/**
 * Several public lookups at once: `{"trackingNumbers": [...]}` (at most 30, duplicates counted
 * once) answers `{"results": [...]}`, one entry per number in the order given. Public like the
 * single lookup, and each number counts against the same per-address limit.
 */
export const { loader, action } = publicApiRoute(
  {
    POST: declared(
      {
        access: 'public',
        rateLimited: true,
        body: TrackingBatchSchema,
        summary: 'Public lookup of up to 30 numbers (no token; CORS)',
        description:
          'Looks up to 30 numbers up at once, without a token and from any origin (CORS). The answer lists each number once, in the order given, found or not; every number counts against the per-address budget of the single lookup.',
        bodyExample: { trackingNumbers: [EXAMPLE_TRACKING_NUMBER, 'SWX000000005'] },
        responses: { 200: 'TrackingBatchResult' },
        errors: [429],
      },
      async ({ request, context }) => {
        const address = clientAddress(context);
        let limit: RateLimitResult | undefined;
        const response = await handleApi(async () => {
          const { trackingNumbers } = await readJsonBody(request, TrackingBatchSchema);
          limit = await trackingLimiter.hit(address, trackingNumbers.length);
          if (!limit.allowed) {
            return apiErrorResponse(
              429,
              'Too many tracking requests. Please wait a minute and try again.',
            );
          }
          const lookups = await lookupTrackingNumbers(trackingNumbers);
          return json({ results: lookups.map(toBatchEntry) });
        });
        // A body that was refused before anything was counted still says what is left of the budget.
        limit ??= await trackingLimiter.peek(address).catch(() => undefined);
        return withRateLimit(response, limit);
      },
    ),
  },
  { cacheControl: 'no-store' },
);
