import type { LoaderFunctionArgs } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { subscribersForExport } from '~/models/inbox.server';
import { requireUserWithRole } from '~/http/auth.server';
import { CSV_ESCAPING } from '~/lib/csv.server';
import { fileResponse } from '~/lib/http-cache.server';

const SUBSCRIBER_CSV_COLUMNS = ['email', 'source', 'subscribedAt', 'handledAt'] as const;

/**
 * Every newsletter subscriber as CSV (oldest first), streamed from the database; cells a
 * spreadsheet would run as a formula are escaped as in the parcel export.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const csv = stringify({ header: true, columns: [...SUBSCRIBER_CSV_COLUMNS], ...CSV_ESCAPING });
  const rows = Readable.from(subscribersForExport());
  rows.on('error', (error) => csv.destroy(error));
  const date = new Date().toISOString().slice(0, 10);
  return fileResponse(createReadableStreamFromReadable(rows.pipe(csv)), {
    contentType: 'text/csv; charset=utf-8',
    filename: `subscribers-${date}.csv`,
  });
}
