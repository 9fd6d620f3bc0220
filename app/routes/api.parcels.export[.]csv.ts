import { createReadableStreamFromReadable } from '@remix-run/node';
import { ParcelExportQuerySchema } from '~/schemas/parcel';
import { EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';
import { apiRoute, validationError } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';
import { fileResponse } from '~/lib/http-cache.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      // `ids` may be repeated, hence a query read here rather than by the handler.
      readsQuery: ParcelExportQuerySchema,
      summary:
        "The filtered parcel list as CSV, streamed (the list's filters and sort), or only the parcels in `ids`",
      description:
        "The parcel list as CSV, streamed, with the list's filters and sort (every parcel they show, not one page), or only the parcels in `ids` (repeated, or separated by commas). Cells that a spreadsheet would read as a formula are escaped with a leading '.",
      contentType: 'text/csv',
      responses: {
        200: {
          schema: { type: 'string' },
          example: `trackingNumber,recipientName,recipientAddress,status\n${EXAMPLE_TRACKING_NUMBER},Ada Lovelace,12 Analytical Way,In Transit\n`,
        },
      },
    },
    async ({ request }) => {
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
    },
  ),
});
