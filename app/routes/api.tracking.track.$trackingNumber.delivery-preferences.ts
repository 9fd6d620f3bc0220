import { acceptedLanguage, queryLanguage } from '~/lib/i18n.server';
import { json } from '@remix-run/node';
import { deliveryPreferencesSchema } from '~/schemas/delivery-preferences';
import { ApiError, readJsonBody } from '~/http/api.server';
import { clientAddress } from '~/lib/rate-limit.server';
import {
  PREFERENCES_CLOSED,
  requestableDays,
  updateDeliveryPreferences,
  WRONG_POSTCODE,
} from '~/services/delivery-preferences.server';
import { trackingNumberNotFound } from '~/services/public-tracking.server';
import { publicApiRoute, trackingNumberHandler } from '~/http/public-api.server';

/**
 * `{postalCode, instructions?, safePlace?, requestedDate?, holdAtDepot?}`: the recipient's say
 * over the delivery, as the form under a tracking result. Public (no token, CORS); the postcode
 * of the delivery address opens it: a wrong one is 403 and changes nothing, and guessing meets
 * 429 per parcel and per client address.
 */
const update = trackingNumberHandler(
  {
    // The days offered change daily: the document names the shape, the server today's days.
    body: deliveryPreferencesSchema([], { strict: true }),
    summary: "Set the recipient's delivery preferences",
    description:
      "The recipient's delivery preferences, behind the delivery address's postcode (the recipient's, or the last stop's): instructions, a safe place, one of the next five working days or holding it at the depot (no token; CORS). A wrong postcode is 403 (forbidden) and changes nothing; guessing meets 429 (rate_limited) per parcel and per client address within 10 tries. A parcel already delivered, failed or returned is 409 (conflict).",
    bodyExample: { postalCode: '02139', instructions: 'Ring twice', safePlace: 'porch' },
    responses: { 200: 'DeliveryPreferencesResult' },
    errors: [403, 404, 409, 429],
  },
  async ({ request, context, trackingNumber, counted }) => {
    const input = await readJsonBody(
      request,
      deliveryPreferencesSchema(requestableDays(), { strict: true }),
    ).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400)
        throw new ApiError(400, error.message, error.details, { code: 'validation_failed' });
      throw error;
    });
    const outcome = await updateDeliveryPreferences(trackingNumber, input, {
      client: clientAddress(context),
      via: 'api',
      context,
      // The confirmation in the language asked for (`?lang=`, Accept-Language), else the parcel's.
      language: queryLanguage(request) ?? acceptedLanguage(request) ?? undefined,
    });
    switch (outcome.kind) {
      case 'rate-limited':
        counted(outcome.limit);
        throw new ApiError(
          429,
          'Too many postcode attempts. Please wait and try again.',
          undefined,
          {
            code: 'rate_limited',
            headers: { 'Retry-After': String(outcome.retryAfterSeconds) },
          },
        );
      case 'not-found':
        throw trackingNumberNotFound(outcome);
      case 'wrong-postcode':
        throw new ApiError(403, WRONG_POSTCODE, undefined, { code: 'forbidden' });
      case 'closed':
        throw new ApiError(409, PREFERENCES_CLOSED, undefined, { code: 'conflict' });
      case 'saved':
        return json({ deliveryPreferences: outcome.preferences });
    }
  },
);

export const { loader, action } = publicApiRoute({ POST: update }, { cacheControl: 'no-store' });
