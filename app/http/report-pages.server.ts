import type { LoaderFunctionArgs } from '@remix-run/node';
import { DeliveryPerformanceQuerySchema } from '~/schemas/run';
import { addDays } from '~/utils/delivery-headline';
import { companyToday } from '~/services/runs.server';
import { deliveryPerformanceReport } from '~/services/reports.server';
import type { PerformanceRow } from '~/models/parcel-reports.server';
import { requireUserWithRole } from './auth.server';

/**
 * The Reports page and its CSV: the delivery performance of the days asked (the last week by
 * default), as the API gives it. A query that does not parse says why and shows nothing.
 */
export async function reportFromRequest({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const params = new URL(request.url).searchParams;
  const today = companyToday();
  const asked = {
    from: params.get('from') || addDays(today, -6),
    to: params.get('to') || today,
    groupBy: params.get('groupBy') || 'day',
  };
  const parsed = DeliveryPerformanceQuerySchema.safeParse(asked);
  if (!parsed.success)
    return {
      asked,
      rows: [] as PerformanceRow[],
      error: parsed.error.issues.map((i) => i.message).join('. '),
    };
  return { asked, rows: (await deliveryPerformanceReport(parsed.data)).rows, error: null };
}
