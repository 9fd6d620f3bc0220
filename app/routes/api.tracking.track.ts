import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { TrackingBatchSchema } from '~/schemas/public-tracking';
import { apiErrorResponse, handleApi, readJsonBody } from '~/services/api.server';
import {
  lookupTrackingNumbers,
  toBatchEntry,
  trackingLimiter,
  withPublicCors,
} from '~/services/public-tracking.server';
import { clientAddress } from '~/services/rate-limit.server';

/**
 * Several public lookups at once: `{"trackingNumbers": [...]}` (at most 30, duplicates counted
 * once) answers `{"results": [...]}`, one entry per number in the order given. Public like the
 * single lookup, and each number counts against the same per-address limit.
 */
const METHODS = 'POST, OPTIONS';

function answer(response: Response): Response {
  response.headers.set('Cache-Control', 'no-store');
  return withPublicCors(response, METHODS);
}

// Remix hands OPTIONS (a CORS preflight) to the loader.
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
  const response = await handleApi(async () => {
    const { trackingNumbers } = await readJsonBody(request, TrackingBatchSchema);
    const limit = await trackingLimiter.hit(clientAddress(context), trackingNumbers.length);
    if (!limit.allowed) {
      return apiErrorResponse(
        429,
        'Too many tracking requests. Please wait a minute and try again.',
        undefined,
        { 'Retry-After': String(limit.retryAfterSeconds) },
      );
    }
    const lookups = await lookupTrackingNumbers(trackingNumbers);
    return json({ results: lookups.map(toBatchEntry) });
  });
  return answer(response);
}
