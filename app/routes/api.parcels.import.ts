import { json } from '@remix-run/node';
import { ParcelImportQuerySchema } from '~/schemas/parcel';
import { ApiError, apiRoute, readCsvBody } from '~/http/api.server';
import { env } from '~/lib/env.server';
import { apiHandler } from '~/http/api-handler.server';
import { importParcelCsv } from '~/services/parcel-import.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/parcels/import[?dryRun=true] with a `text/csv` body (the export's columns, header
   * row first) → 200 `{imported, rows, dryRun, errors: [], trackingNumbers, created, updated,
   * unchanged, updatedTrackingNumbers}` (a row with a stored parcel's number updates it); when any row is bad,
   * 400 with every row's `errors: [{row, field, message}]` and nothing written. Rows are numbered
   * as in a spreadsheet: the header is row 1.
   */
  POST: apiHandler(
    { role: 'staff', query: ParcelImportQuerySchema, idempotent: true },
    async ({ request, query, actor }) => {
      const text = await readCsvBody(request, env.IMPORT_BODY_LIMIT_BYTES);
      const { preview: _preview, ...result } = await importParcelCsv(text, {
        dryRun: query.dryRun,
        who: actor,
      });
      if (!result.errors.length) return json(result);
      const bad = new Set(result.errors.map((e) => e.row)).size;
      const message = `Nothing was imported: ${bad} row${bad === 1 ? ' has' : 's have'} errors`;
      throw new ApiError(400, message, undefined, { extra: result });
    },
  ),
});
