import { createReadableStreamFromReadable, type LoaderFunctionArgs } from '@remix-run/node';
import { requireShipper } from '~/http/auth.server';
import { portalParcelQuery } from '~/http/portal-pages.server';
import { fileResponse } from '~/lib/http-cache.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';

/** The account's own parcels as CSV, with the list's search, status and days. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const { filters } = portalParcelQuery(request);
  const stream = await parcelCsvStream({ ...filters, scope: user.account });
  return fileResponse(createReadableStreamFromReadable(stream), {
    contentType: 'text/csv; charset=utf-8',
    filename: `parcels-${new Date().toISOString().slice(0, 10)}.csv`,
  });
}
