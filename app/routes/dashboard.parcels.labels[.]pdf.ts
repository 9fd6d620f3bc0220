import { parseWithZod } from '@conform-to/zod/v4';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { getParcelsByIds } from '~/models/parcel-reads.server';
import { LabelSheetQuerySchema } from '~/schemas/parcel';
import { requireUser } from '~/http/auth.server';
import { firstError } from '~/lib/form.server';
import { renderLabelSheetPdf } from '~/services/label-render.server';
import { refusalPage } from '~/lib/refusal-page.server';
import { parcelListHref } from '~/utils/parcel-list-href';
import { fileResponse } from '~/lib/http-cache.server';

function refusal(status: number, message: string, back: string) {
  return refusalPage({ status, title: 'No labels printed', message, back });
}

/**
 * GET /dashboard/parcels/labels.pdf?ids=…&paper=a4|letter → the selected parcels' labels on A4
 * (the default) or Letter, two true-size 4×6 in labels a page (see renderLabelSheetPdf). Up to
 * MAX_LABELS_PER_SHEET parcels; more, none, or a paper that is neither answers 400. Every role may
 * print labels.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const back = parcelListHref(url.searchParams.get('back'));
  const query = parseWithZod(url.searchParams, { schema: LabelSheetQuerySchema });
  if (query.status !== 'success')
    return refusal(400, `${firstError(query, 'Select parcels')}.`, back);
  const { paper, ids } = query.value;
  const parcels = await getParcelsByIds(ids);
  if (!parcels.length) return refusal(404, 'The selected parcels no longer exist.', back);
  const pdf = await renderLabelSheetPdf(parcels, paper);
  const date = new Date().toISOString().slice(0, 10);
  return fileResponse(new Uint8Array(pdf), {
    contentType: 'application/pdf',
    filename: `labels-${date}.pdf`,
    inline: true,
  });
}
