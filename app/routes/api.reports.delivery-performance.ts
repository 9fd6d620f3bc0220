import { json } from '@remix-run/node';
import { DeliveryPerformanceQuerySchema } from '~/schemas/run';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { named } from '~/http/api-operation.server';
import { deliveryPerformanceReport } from '~/services/reports.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'staff',
      query: DeliveryPerformanceQuerySchema,
      summary: 'Delivery performance by day, week, depot, courier or account',
      description:
        'Parcels delivered from `from` to `to` (whole days in the company’s zone: a delivery at 23:30 there counts on that day), grouped by `groupBy`: the first-attempt rate (delivered without a failed attempt before), the on-time rate (delivered within the promised window, or by the promised day), the failed attempts of the period by reason and the average stops per courier’s run. Rates go from 0 to 1. Computed by the database; at most a year at a time.',
      responses: { 200: named('DeliveryPerformance') },
    },
    async ({ query }) => json(await deliveryPerformanceReport(query)),
  ),
});
