import { getParcel } from '~/models/parcel-reads.server';
import { labelFilename } from '~/schemas/label';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { file, forAccounts } from '~/http/api-operation.server';
import { renderLabelPdf } from '~/services/label-render.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { fileResponse } from '~/lib/http-cache.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      ids: { id: resolveParcelRef },
      summary:
        "The parcel's 4×6 in shipping label as a PDF: sender, recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its tracking page",
      description:
        "The parcel's 4\u00d76 in shipping label as a PDF: sender, recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its tracking page. Any signed-in role may print one.",
      contentType: 'application/pdf',
      responses: { 200: file('application/pdf') },
      errors: [404],
    },
    async ({ ids }) => {
      const parcel = await found(getParcel(ids.id), 'Parcel not found');
      const pdf = await renderLabelPdf(parcel);
      // Inline: the browser shows it, ready to print; saving it keeps the tracking number.
      return fileResponse(new Uint8Array(pdf), {
        contentType: 'application/pdf',
        filename: labelFilename(parcel.trackingNumber),
        inline: true,
      });
    },
  ),
});
