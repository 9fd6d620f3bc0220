import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { apiErrorResponse, handleApi } from '~/lib/api.server';
import { conditionalResponse, PRIVATE_REVALIDATE } from '~/lib/http-cache.server';
import {
  lookupTrackingNumber,
  notFoundCode,
  TRACKING_NOT_FOUND,
  trackingLimiter,
  publicAnswer,
} from '~/services/public-tracking.server';
import { clientAddress, type RateLimitResult } from '~/lib/rate-limit.server';

const METHODS = 'GET, OPTIONS';

// A result may be kept by the browser but is checked every time: unchanged, it costs a 304.
// Every answer after a counted lookup says what is left of the budget.
function answer(response: Response, limit?: RateLimitResult): Response {
  return publicAnswer(response, { methods: METHODS, cacheControl: PRIVATE_REVALIDATE, limit });
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // Remix hands OPTIONS (a CORS preflight) to the loader; it looks nothing up and counts nothing.
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  const limit = await trackingLimiter.hit(clientAddress(context));
  if (!limit.allowed) {
    return answer(
      apiErrorResponse(429, 'Too many tracking requests. Please wait a minute and try again.'),
      limit,
    );
  }
  const response = await handleApi(async () => {
    const lookup = await lookupTrackingNumber(params.trackingNumber ?? '');
    if (lookup.kind === 'malformed') {
      return apiErrorResponse(
        400,
        'Invalid tracking number: expected three letters followed by nine digits',
        {
          trackingNumber: ['Expected three letters followed by nine digits, e.g. SWX123456789'],
        },
      );
    }
    if (lookup.kind === 'not-found') {
      // `error` and `message` are the same text (the spec's clients read either); the number is
      // given on its own.
      return new Response(
        JSON.stringify({
          error: TRACKING_NOT_FOUND,
          message: TRACKING_NOT_FOUND,
          code: notFoundCode(lookup),
          trackingNumber: lookup.trackingNumber,
        }),
        { status: 404, headers: JSON_HEADERS },
      );
    }
    return conditionalResponse(request, JSON.stringify(lookup.result), {
      headers: new Headers(JSON_HEADERS),
    });
  });
  return answer(response, limit);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
}
