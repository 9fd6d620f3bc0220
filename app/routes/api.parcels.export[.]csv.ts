import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { ParcelListQuerySchema } from '~/schemas/parcel';
import { handleApi, methodNotAllowed, parseQuery } from '~/services/api.server';
import { requireApiUser } from '~/services/auth.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';

const ExportQuerySchema = ParcelListQuerySchema.omit({ page: true, limit: true });

/**
 * GET /api/parcels/export.csv?search&status&sort&order → text/csv of every parcel the list shows
 * with those filters (not only one page), streamed.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const query = parseQuery(request, ExportQuerySchema);
    const stream = await parcelCsvStream(query);
    const date = new Date().toISOString().slice(0, 10);
    return new Response(createReadableStreamFromReadable(stream), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="parcels-${date}.csv"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
