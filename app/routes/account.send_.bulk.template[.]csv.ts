import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireShipper } from '~/http/auth.server';
import { fileResponse } from '~/lib/http-cache.server';
import { bulkBookingTemplate } from '~/services/bulk-booking.server';

/** The bulk booking's template: its columns and one example parcel. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireShipper(request);
  return fileResponse(bulkBookingTemplate(), {
    contentType: 'text/csv; charset=utf-8',
    filename: 'bulk-booking-template.csv',
  });
}
