import { json } from '@remix-run/node';
import { ParcelImportQuerySchema } from '~/schemas/parcel';
import { PARCEL_IMPORT_MAX_ROWS } from '~/schemas/constants';
import { ApiError, apiRoute, readCsvBody } from '~/http/api.server';
import { env } from '~/lib/env.server';
import { apiHandler } from '~/http/api-handler.server';
import { importParcelCsv } from '~/services/parcel-import.server';

/** 20 MiB as the document says it. */
const mebibytes = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`;

export const { loader, action } = apiRoute({
  // Rows are numbered as in a spreadsheet: the header is row 1.
  POST: apiHandler(
    {
      role: 'staff',
      query: ParcelImportQuerySchema,
      idempotent: true,
      summary:
        "Import parcels from CSV (the export's columns): rows create parcels or update those with their tracking number, all rows or none; ?dryRun=true only validates",
      description:
        "Imports parcels from a CSV file with the export's columns: a row creates a parcel, or updates the stored parcel whose tracking number it carries; every row or none. `dryRun=true` only checks the file and counts what would be created, updated or left unchanged. The errors list each row and column that failed.",
      rawBody: {
        contentType: 'text/csv',
        schema: { type: 'string' },
        example:
          'recipientName,recipientAddress,serviceType\nAda Lovelace,12 Analytical Way,Express\n',
        description: `UTF-8 CSV whose header row names the columns of GET /api/parcels/export.csv (any order; recipientName and recipientAddress needed). An empty trackingNumber gets a new one; the number of a stored parcel updates that parcel as PUT /api/parcels/{id} would (the columns given; an empty status, serviceType, priority, estimatedDelivery or destinations cell, or destinations \`[]\`, keeps the stored value; cost, createdAt and actualDelivery must be empty or as stored), with its parcel.updated and parcel.status_changed webhooks; any other number creates a parcel under it; a number twice in the file is an error. Cells the export escaped with a leading ' are read back as they were. At most ${PARCEL_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows and IMPORT_BODY_LIMIT_BYTES (${mebibytes(env.IMPORT_BODY_LIMIT_BYTES)}).`,
      },
      responses: { 200: 'ParcelImportResult' },
      errors: [413, 415],
      errorAnswers: { 400: 'ParcelImportErrors' },
    },
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
