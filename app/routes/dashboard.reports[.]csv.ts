import type { LoaderFunctionArgs } from '@remix-run/node';
import { fileResponse } from '~/lib/http-cache.server';
import { refusalPage } from '~/lib/refusal-page.server';
import { reportFromRequest } from '~/http/report-pages.server';
import { deliveryPerformanceCsv } from '~/services/reports.server';

/** GET /dashboard/reports.csv?from&to&groupBy → the Reports page's figures as CSV. */
export async function loader(args: LoaderFunctionArgs) {
  const { asked, rows, error } = await reportFromRequest(args);
  if (error)
    return refusalPage({
      status: 400,
      title: 'No report',
      message: error,
      back: '/dashboard/reports',
    });
  return fileResponse(deliveryPerformanceCsv(rows), {
    contentType: 'text/csv; charset=utf-8',
    filename: `delivery-performance-${asked.from}-${asked.to}-${asked.groupBy}.csv`,
  });
}
