import { json } from '@remix-run/node';
import { RateCardSchema } from '~/schemas/rate-card';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { getRateCard, updateRateCard } from '~/services/rate-card.server';

const rateCard = wrap('rateCard', 'RateCard');

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary: 'The rate card: zones, weight bands and prices per service, surcharges, discounts',
      description:
        'The rate card every quote is priced by, in the form `PUT` takes back: a read can be sent back unchanged (`updatedAt` is ignored). Money is in the currency’s minor units, in fields named `…Amount`.',
      responses: { 200: rateCard },
    },
    async () => json({ rateCard: await getRateCard() }),
  ),
  PUT: apiHandler(
    {
      role: 'admin',
      body: RateCardSchema,
      summary: 'Replace the rate card (admin)',
      description:
        'Replaces the whole rate card (admin). New quotes are priced by it at once; a quote already given keeps its price until it expires, and a booked parcel keeps the price it was booked at.',
      bodyExample: {
        currency: 'USD',
        volumetricDivisor: 5000,
        fuelSurchargePercent: 4.5,
        remoteSurchargeAmount: 1500,
        remoteAreas: [{ country: 'US', postcodePrefixes: ['995', '996'] }],
        zones: [{ code: 'domestic', name: 'United States', countries: ['US'] }],
        prices: [{ zone: 'domestic', serviceType: 'Standard', maxWeightKg: 1, priceAmount: 999 }],
      },
      responses: { 200: rateCard },
    },
    async ({ body, actor }) => json({ rateCard: await updateRateCard(body, actor) }),
  ),
});
