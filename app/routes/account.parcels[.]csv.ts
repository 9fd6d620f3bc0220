import { createReadableStreamFromReadable, type LoaderFunctionArgs } from '@remix-run/node';
import { ParcelExportQuerySchema } from '~/schemas/parcel';
import { requireShipper } from '~/http/auth.server';
import { fileResponse } from '~/lib/http-cache.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';

/** The account's own parcels as CSV, with the list's search and status. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = ParcelExportQuerySchema.pick({ search: true, status: true }).safeParse(params);
  const stream = await parcelCsvStream({
    ...(parsed.success ? parsed.data : {}),
    scope: user.account,
  });
  return fileResponse(createReadableStreamFromReadable(stream), {
    contentType: 'text/csv; charset=utf-8',
    filename: `parcels-${new Date().toISOString().slice(0, 10)}.csv`,
  });
}
