import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ParcelImportQuerySchema } from '~/schemas/parcel';
import { handleApi, methodNotAllowed, parseQuery, readCsvBody } from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { env } from '~/lib/env.server';
import { idempotent } from '~/services/idempotency.server';
import { importParcelCsv } from '~/services/parcel-import.server';

export function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(['POST']);
}

/**
 * POST /api/parcels/import[?dryRun=true] with a `text/csv` body (the export's columns, header row
 * first) → 200 `{imported, rows, dryRun, errors: [], trackingNumbers}`; when any row is bad, 400
 * with every row's `errors: [{row, field, message}]` and nothing written. Rows are numbered as in
 * a spreadsheet: the header is row 1.
 */
export function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    const { dryRun } = parseQuery(request, ParcelImportQuerySchema);
    return idempotent(request, async () => {
      const text = await readCsvBody(request, env.IMPORT_BODY_LIMIT_BYTES);
      const { preview: _preview, ...result } = await importParcelCsv(text, {
        dryRun,
        who: { user, context, via: 'api' },
      });
      if (!result.errors.length) return json(result);
      const bad = new Set(result.errors.map((e) => e.row)).size;
      const message = `Nothing was imported: ${bad} row${bad === 1 ? ' has' : 's have'} errors`;
      return json({ error: message, message, ...result }, { status: 400 });
    });
  });
}
