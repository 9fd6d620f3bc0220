import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUserWithRole } from '~/http/auth.server';
import { parcelImportTemplate } from '~/services/parcel-import.server';
import { fileResponse } from '~/lib/http-cache.server';

/** The import's template: the export's header row and one example parcel. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return fileResponse(parcelImportTemplate(), {
    contentType: 'text/csv; charset=utf-8',
    filename: 'parcels-import-template.csv',
  });
}
