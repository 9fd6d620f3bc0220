import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUserWithRole } from '~/services/auth.server';
import { parcelImportTemplate } from '~/services/parcel-import.server';

/** The import's template: the export's header row and one example parcel. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return new Response(parcelImportTemplate(), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="parcels-import-template.csv"',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
