import { json } from '@remix-run/node';
import { ReceiptGenerateSchema } from '~/schemas/receipt';
import { apiRoute, found, readJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { generateReceipt } from '~/services/receipts.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/receipts/generate/:parcelId (the id or the tracking number) with an optional JSON
   * body → 201 { receipt }.
   */
  POST: apiHandler(
    { role: 'staff', ids: { parcelId: resolveParcelRef }, idempotent: true },
    async ({ request, ids, actor }) => {
      // The body is optional: an empty request without a Content-Type means "all defaults".
      const hasBody = request.headers.has('content-type') || (await request.clone().text()) !== '';
      const input = hasBody ? await readJsonBody(request, ReceiptGenerateSchema) : {};
      const receipt = await found(
        generateReceipt(ids.parcelId, input, new Date(), actor),
        'Parcel not found',
      );
      return json({ receipt }, { status: 201 });
    },
  ),
});
