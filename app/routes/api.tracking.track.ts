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

/**
 * Several public lookups at once: `{"trackingNumbers": [...]}` (at most 30, duplicates counted
 * once) answers `{"results": [...]}`, one entry per number in the order given. Public like the
 * single lookup, and each number counts against the same per-address limit.
 */
export const { loader, action } = publicApiRoute(
  {
    POST: async ({ request, context }) => {
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
  },
  { cacheControl: 'no-store' },
);
