import { stringify } from 'csv-stringify/sync';
import { env } from '~/lib/env.server';
import { CSV_ESCAPING } from '~/lib/csv.server';
import { deliveryPerformance, type PerformanceRow } from '~/models/parcel-reports.server';
import type { DeliveryPerformanceQuery } from '~/schemas/run';
import { addDays } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';

/**
 * Delivery performance over whole company days: `from` at midnight in the company's zone to
 * the midnight after `to`, grouped as asked; the figures come from the database's aggregation
 * of the parcels' delivery facts, whose days are in that same zone.
 */
export async function deliveryPerformanceReport(
  query: DeliveryPerformanceQuery,
  /** The parcels counted (a statement's account): every one unless given. */
  where?: Record<string, unknown>,
): Promise<{ rows: PerformanceRow[] }> {
  const timeZone = env.COMPANY_TIMEZONE;
  const rows = await deliveryPerformance({
    start: zonedDateTimeToUtc(query.from, '00:00', timeZone),
    end: zonedDateTimeToUtc(addDays(query.to, 1), '00:00', timeZone),
    groupBy: query.groupBy,
    where,
  });
  return { rows };
}

/** The report as CSV: one line per group, the failed attempts' reasons as `reason=count`. */
export function deliveryPerformanceCsv(rows: PerformanceRow[]): string {
  return stringify(
    rows.map((row) => ({
      ...row,
      failedByReason: Object.entries(row.failedByReason)
        .map(([reason, count]) => `${reason}=${count}`)
        .join('; '),
    })),
    {
      header: true,
      columns: [
        'key',
        'delivered',
        'firstAttemptRate',
        'onTimeRate',
        'failedAttempts',
        'failedByReason',
        'averageStopsPerRun',
      ],
      ...CSV_ESCAPING,
    },
  );
}
