import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { TrackingBatchSchema } from '~/schemas/public-tracking';
import { apiErrorResponse, handleApi, readJsonBody } from '~/lib/api.server';
import {
  lookupTrackingNumbers,
  toBatchEntry,
  trackingLimiter,
  publicAnswer,
} from '~/services/public-tracking.server';
import { clientAddress, type RateLimitResult } from '~/lib/rate-limit.server';

/**
 * Several public lookups at once: `{"trackingNumbers": [...]}` (at most 30, duplicates counted
 * once) answers `{"results": [...]}`, one entry per number in the order given. Public like the
 * single lookup, and each number counts against the same per-address limit.
 */
const METHODS = 'POST, OPTIONS';

function answer(response: Response, limit?: RateLimitResult): Response {
  return publicAnswer(response, { methods: METHODS, cacheControl: 'no-store', limit });
}

// Remix hands OPTIONS (a CORS preflight) to the loader.
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
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
  return answer(response, limit);
}
