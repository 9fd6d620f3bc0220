import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { apiErrorResponse, handleApi } from '~/services/api.server';
import { conditionalResponse, PRIVATE_REVALIDATE } from '~/services/http-cache.server';
import {
  lookupTrackingNumber,
  TRACKING_NOT_FOUND,
  trackingLimiter,
  withPublicCors,
} from '~/services/public-tracking.server';
import { clientAddress } from '~/services/rate-limit.server';

const METHODS = 'GET, OPTIONS';

// A result may be kept by the browser but is checked every time: unchanged, it costs a 304.
function answer(response: Response): Response {
  response.headers.set('Cache-Control', PRIVATE_REVALIDATE);
  return withPublicCors(response, METHODS);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // Remix hands OPTIONS (a CORS preflight) to the loader; it looks nothing up.
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  const limit = await trackingLimiter.hit(clientAddress(context));
  if (!limit.allowed) {
    return answer(
      apiErrorResponse(
        429,
        'Too many tracking requests. Please wait a minute and try again.',
        undefined,
        { 'Retry-After': String(limit.retryAfterSeconds) },
      ),
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
      return json(
        {
          error: TRACKING_NOT_FOUND,
          message: `${TRACKING_NOT_FOUND}: ${lookup.trackingNumber}`,
        },
        { status: 404 },
      );
    }
    return conditionalResponse(request, JSON.stringify(lookup.result), {
      headers: new Headers({ 'Content-Type': 'application/json; charset=utf-8' }),
    });
  });
  return answer(response);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
}
