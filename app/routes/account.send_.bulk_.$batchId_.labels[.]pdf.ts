import type { LoaderFunctionArgs } from '@remix-run/node';
import { bookedBatch } from '~/http/portal-pages.server';
import { fileResponse } from '~/lib/http-cache.server';
import { renderLabelsPdf } from '~/services/label-render.server';

/** Every label of a bulk booking in one PDF: 4×6 in, one a page, in the order booked. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { batch, parcels } = await bookedBatch(request, params.batchId);
  const pdf = await renderLabelsPdf(parcels);
  return fileResponse(new Uint8Array(pdf), {
    contentType: 'application/pdf',
    filename: `labels-${(batch.createdAt ?? new Date().toISOString()).slice(0, 10)}.pdf`,
  });
}
