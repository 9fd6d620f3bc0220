import { parseWithZod } from '@conform-to/zod/v4';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { getParcelsByIds } from '~/models/parcel.server';
import { LabelSheetQuerySchema } from '~/schemas/parcel';
import { requireUser } from '~/services/auth.server';
import { firstError } from '~/lib/form.server';
import { renderLabelSheetPdf } from '~/services/label-render.server';
import { escapeHtml } from '~/lib/html';
import { parcelListHref } from '~/utils/parcel-list-href';
import { fileResponse } from '~/lib/http-cache.server';

/** A short page that says why no sheet was made, with the way back to the list. */
function refusal(status: number, message: string, back: string) {
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No labels printed</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; margin: 2rem; color: #111827">
<main>
<h1 style="font-size: 1.25rem">No labels printed</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back)}">Back to the parcels</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' },
  });
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
