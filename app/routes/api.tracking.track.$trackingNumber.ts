import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { apiErrorResponse, handleApi } from '~/services/api.server';
import { lookupTrackingNumber, trackingLimiter } from '~/services/public-tracking.server';
import { clientAddress } from '~/services/rate-limit.server';

// The one endpoint other sites may call from the browser.
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

function withCors(response: Response): Response {
  for (const [key, value] of Object.entries(CORS_HEADERS)) response.headers.set(key, value);
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const limit = await trackingLimiter.hit(clientAddress(context));
  if (!limit.allowed) {
    return withCors(
      apiErrorResponse(
        429,
        'Too many tracking requests. Please wait a minute and try again.',
        undefined,
        {
          'Retry-After': String(limit.retryAfterSeconds),
        },
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
          error: 'Tracking number not found',
          message: `Tracking number not found: ${lookup.trackingNumber}`,
        },
        { status: 404 },
      );
    }
    return json(lookup.result);
  });
  return withCors(response);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method === 'OPTIONS') return withCors(new Response(null, { status: 204 }));
  return withCors(
    apiErrorResponse(405, 'Method not allowed', undefined, { Allow: 'GET, OPTIONS' }),
  );
}
