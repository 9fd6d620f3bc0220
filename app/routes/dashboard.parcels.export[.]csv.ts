import { parseWithZod } from '@conform-to/zod/v4';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { firstError } from '~/lib/form.server';
import { fileResponse } from '~/lib/http-cache.server';
import { refusalPage } from '~/lib/refusal-page.server';
import { ParcelExportSelectionQuerySchema } from '~/schemas/parcel';
import { requireUser } from '~/http/auth.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';
import { parcelListHref } from '~/utils/parcel-list-href';

/**
 * GET /dashboard/parcels/export.csv?ids=… → the ticked parcels as CSV: the table's "Export
 * selected". With nothing ticked it says so (without JavaScript the button cannot know), rather
 * than exporting every parcel; the whole list's export is `/api/parcels/export.csv`. Every role may
 * export.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const back = parcelListHref(url.searchParams.get('back'));
  const query = parseWithZod(url.searchParams, { schema: ParcelExportSelectionQuerySchema });
  if (query.status !== 'success') {
    return refusalPage({
      status: 400,
      title: 'Nothing exported',
      message: `${firstError(query, 'Tick the parcels to export first')}.`,
      back,
    });
  }
  const stream = await parcelCsvStream({ ids: query.value.ids });
  const date = new Date().toISOString().slice(0, 10);
  return fileResponse(createReadableStreamFromReadable(stream), {
    contentType: 'text/csv; charset=utf-8',
    filename: `parcels-selected-${date}.csv`,
  });
}
