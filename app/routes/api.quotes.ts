import { json } from '@remix-run/node';
import { QuoteCreateSchema } from '~/schemas/rate-card';
import { ApiError, apiRoute, handleApi, readJsonBody } from '~/http/api.server';
import { requireApiUser } from '~/http/auth.server';
import { declared, items } from '~/http/api-operation.server';
import { withRateLimit } from '~/http/public-api.server';
import { clientAddress, rateLimitHeaders, type RateLimitResult } from '~/lib/rate-limit.server';
import type { Actor } from '~/services/audit.server';
import { createQuotes, QUOTE_TTL_MS, quoteClientLimiter } from '~/services/quotes.server';

export const { loader, action } = apiRoute({
  POST: declared(
    {
      access: 'public',
      rateLimited: true,
      readsBody: QuoteCreateSchema,
      summary: 'Price a parcel: a quote per service, held for 30 minutes',
      description: `Prices a parcel by the rate card: one quote for \`serviceType\`, or one per service the card prices for the destination's zone and the parcel's chargeable weight (the larger of \`weight\`, kg, and length × width × height, cm, over the card's volumetric divisor). Each quote is held for ${QUOTE_TTL_MS / 60_000} minutes and books one parcel (\`POST /api/parcels\` with \`quoteId\`). Public without a key (limited per client address); with a shipper account's key, at the account's prices. A postcode the card does not serve is a 400 \`destination_not_served\` naming the field, never a guess.`,
      bodyExample: {
        from: { country: 'US', postalCode: '97201' },
        to: { country: 'US', postalCode: '62701' },
        weight: 0.8,
        dimensions: { length: 20, width: 15, height: 10 },
      },
      responses: { 201: items('quotes', 'Quote') },
      errors: [400, 401, 429],
    },
    async ({ request, context }) => {
      let limit: RateLimitResult | undefined;
      const response = await handleApi(async () => {
        let actor: Actor | null = null;
        if (request.headers.has('authorization'))
          actor = { user: await requireApiUser(request), context, via: 'api' };
        else {
          limit = await quoteClientLimiter.hit(clientAddress(context));
          if (!limit.allowed)
            throw new ApiError(429, 'Too many quotes. Please wait and try again.', undefined, {
              headers: rateLimitHeaders(limit),
            });
        }
        const body = await readJsonBody(request, QuoteCreateSchema);
        return json({ quotes: await createQuotes(body, actor) }, { status: 201 });
      });
      return withRateLimit(response, limit);
    },
  ),
});
