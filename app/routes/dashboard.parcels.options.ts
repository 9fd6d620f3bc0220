import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listParcelOptions } from '~/models/parcel-reads.server';
import { PARCEL_OPTIONS_LIMIT } from '~/schemas/constants';
import { ParcelOptionsQuerySchema } from '~/schemas/parcel';
import { handleApi, parseQuery } from '~/http/api.server';
import { requireUser } from '~/http/auth.server';

/**
 * GET /dashboard/parcels/options?search=… → `{parcels, truncated}`: the first PARCEL_OPTIONS_LIMIT
 * parcels matching the search by tracking number, sender or recipient (the newest without one),
 * for the parcel pickers' combobox. Every role may read parcels. A dashboard route, not part of
 * the public API: signed out, it redirects to the sign-in page like the dashboard's pages.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return handleApi(async () => {
    const { search } = parseQuery(request, ParcelOptionsQuerySchema);
    // One more than is offered tells whether the search should be narrowed to reach the others.
    const found = await listParcelOptions({ search, limit: PARCEL_OPTIONS_LIMIT + 1 });
    return json(
      {
        parcels: found.slice(0, PARCEL_OPTIONS_LIMIT),
        truncated: found.length > PARCEL_OPTIONS_LIMIT,
      },
      { headers: { 'Cache-Control': 'private, no-store' } },
    );
  });
}
