import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  requestParcelSubscription,
  SUBSCRIBE_ANSWER,
  subscribeClientLimiter,
} from '~/services/parcel-subscriptions.server';
import { TRACKING_NUMBER_PATTERN, normalizeTrackingNumber } from '~/schemas/constants';
import { ParcelSubscribeSchema } from '~/schemas/public-forms';
import { apiErrorResponse, handleApi, readJsonBody } from '~/lib/api.server';
import { publicAnswer, TRACKING_NOT_FOUND } from '~/services/public-tracking.server';
import { clientAddress, type RateLimitResult } from '~/lib/rate-limit.server';

/**
 * `{"email"}` asks for e-mail updates on a parcel, as the form under a tracking result does: a
 * confirmation e-mail goes to the address, and the answer (202) is the same whatever became of
 * the request. Public like the tracking lookups (no token, CORS), and limited per client address.
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

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method === 'OPTIONS') return answer(new Response(null, { status: 204 }));
  if (request.method !== 'POST')
    return answer(apiErrorResponse(405, 'Method not allowed', undefined, { Allow: METHODS }));
  let limit: RateLimitResult | undefined;
  const response = await handleApi(async () => {
    const trackingNumber = normalizeTrackingNumber(params.trackingNumber ?? '');
    if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) {
      return apiErrorResponse(
        400,
        'Invalid tracking number: expected three letters followed by nine digits',
        { trackingNumber: ['Expected three letters followed by nine digits, e.g. SWX123456789'] },
      );
    }
    const { email } = await readJsonBody(request, ParcelSubscribeSchema);
    limit = await subscribeClientLimiter.hit(clientAddress(context));
    if (!limit.allowed)
      return apiErrorResponse(429, 'Too many subscription requests. Please wait and try again.');
    const outcome = await requestParcelSubscription({ trackingNumber, email });
    if (outcome === 'not-found') {
      return json(
        { error: TRACKING_NOT_FOUND, message: TRACKING_NOT_FOUND, trackingNumber },
        { status: 404 },
      );
    }
    if (outcome === 'delivered')
      return apiErrorResponse(409, 'This parcel has been delivered: there are no more updates.');
    return json({ message: SUBSCRIBE_ANSWER }, { status: 202 });
  });
  return answer(response, limit);
}
