import { json } from '@remix-run/node';
import { ParcelSubscribeSchema } from '~/schemas/public-forms';
import { apiErrorResponse, readJsonBody } from '~/http/api.server';
import { requestLanguage } from '~/lib/i18n.server';
import { clientAddress } from '~/lib/rate-limit.server';
import {
  requestParcelSubscription,
  SUBSCRIBE_ANSWER,
  subscribeClientLimiter,
} from '~/services/parcel-subscriptions.server';
import { notFound, trackingNumberNotFound } from '~/services/public-tracking.server';
import { publicApiRoute, trackingNumberHandler } from '~/http/public-api.server';

/**
 * `{"email"}` asks for e-mail updates on a parcel, as the form under a tracking result does: a
 * confirmation e-mail goes to the address, and the answer (202) is the same whatever became of
 * the request. Public like the tracking lookups (no token, CORS), and limited per client address.
 */
const subscribe = trackingNumberHandler(
  {
    body: ParcelSubscribeSchema,
    summary:
      'E-mail updates on a parcel until delivery: a confirmation e-mail goes to the address (202 whatever the address; no token; CORS)',
    description:
      'Asks for e-mail updates on a parcel until it is delivered: a confirmation e-mail goes to the address, and updates start once its link is followed. The answer is 202 whatever the address, so it does not tell who follows what. No token; CORS; limited per client address.',
    bodyExample: { email: 'ada@example.com' },
    responses: { 202: 'SubscriptionRequested' },
    errors: [404, 409, 429],
  },
  async ({ request, context, trackingNumber, counted }) => {
    const { email } = await readJsonBody(request, ParcelSubscribeSchema);
    const limit = await subscribeClientLimiter.hit(clientAddress(context));
    counted(limit);
    if (!limit.allowed)
      return apiErrorResponse(429, 'Too many subscription requests. Please wait and try again.');
    // In the language the caller asks for (`?lang=`, else Accept-Language), else the company's.
    const language = await requestLanguage(request);
    const outcome = await requestParcelSubscription({ trackingNumber, email, language });
    if (outcome === 'not-found') throw trackingNumberNotFound(notFound(trackingNumber));
    if (outcome === 'delivered')
      return apiErrorResponse(409, 'This parcel has been delivered: there are no more updates.');
    return json({ message: SUBSCRIBE_ANSWER }, { status: 202 });
  },
);

export const { loader, action } = publicApiRoute({ POST: subscribe }, { cacheControl: 'no-store' });
