import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { ParcelExportQuerySchema } from '~/schemas/parcel';
import { handleApi, methodNotAllowed, validationError } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';
import { parcelCsvStream } from '~/services/parcel-csv.server';

/**
 * GET /api/parcels/export.csv?search&status&sort&order → text/csv of every parcel the list shows
 * with those filters (not only one page), streamed. `ids` (repeated, or separated by commas) keeps
 * only those parcels: the table's "Export selected".
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const { searchParams } = new URL(request.url);
    const params: Record<string, string> = Object.fromEntries(searchParams);
    if (searchParams.has('ids')) params.ids = searchParams.getAll('ids').join(',');
    const parsed = ParcelExportQuerySchema.safeParse(params);
    if (!parsed.success) throw validationError(parsed.error);
    const stream = await parcelCsvStream(parsed.data);
    const date = new Date().toISOString().slice(0, 10);
    const name = parsed.data.ids ? `parcels-selected-${date}.csv` : `parcels-${date}.csv`;
    return new Response(createReadableStreamFromReadable(stream), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
