import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { getParcel } from '~/models/parcel.server';
import { labelFilename } from '~/schemas/label';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';
import { renderLabelPdf } from '~/services/label-render.server';

/**
 * GET /api/parcels/:id/label.pdf → the parcel's 4×6 in shipping label (application/pdf): sender,
 * recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its
 * public tracking page. Any signed-in role may print one.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'parcel id');
    const parcel = await getParcel(id);
    if (!parcel) throw new ApiError(404, 'Parcel not found');
    const pdf = await renderLabelPdf(parcel);
    return new Response(new Uint8Array(pdf), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.length),
        // Inline: the browser shows it, ready to print; saving it keeps the tracking number.
        'Content-Disposition': `inline; filename="${labelFilename(parcel.trackingNumber)}"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
