import { createReadableStreamFromReadable } from '@remix-run/node';
import { ParcelExportQuerySchema } from '~/schemas/parcel';
import { apiRoute, validationError } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';
import { fileResponse } from '~/lib/http-cache.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/parcels/export.csv?search&status&sort&order → text/csv of every parcel the list shows
   * with those filters (not only one page), streamed. `ids` (repeated, or separated by commas)
   * keeps only those parcels: the table's "Export selected".
   */
  GET: apiHandler({ role: 'viewer' }, async ({ request }) => {
    const { searchParams } = new URL(request.url);
    const params: Record<string, string> = Object.fromEntries(searchParams);
    if (searchParams.has('ids')) params.ids = searchParams.getAll('ids').join(',');
    const parsed = ParcelExportQuerySchema.safeParse(params);
    if (!parsed.success) throw validationError(parsed.error);
    const stream = await parcelCsvStream(parsed.data);
    const date = new Date().toISOString().slice(0, 10);
    const name = parsed.data.ids ? `parcels-selected-${date}.csv` : `parcels-${date}.csv`;
    return fileResponse(createReadableStreamFromReadable(stream), {
      contentType: 'text/csv; charset=utf-8',
      filename: name,
    });
  }),
});
