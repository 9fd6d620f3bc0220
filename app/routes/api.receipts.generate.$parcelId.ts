import { json } from '@remix-run/node';
import { ReceiptGenerateSchema } from '~/schemas/receipt';
import { apiRoute, found, readOptionalJsonBody } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { generateReceipt } from '~/services/receipts.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'staff',
      ids: { parcelId: resolveParcelRef },
      idempotent: true,
      readsBody: ReceiptGenerateSchema,
      bodyOptional: true,
      summary: 'Generate a receipt for a parcel',
      description:
        "Stores a receipt for the parcel, numbered RCP-{year}-{sequence}, for the parcel's cost plus tax. The body is optional: customer, e-mail, payment method and format default from the parcel.",
      bodyExample: {
        customerName: 'Acme Books',
        customerEmail: 'orders@acme.example',
        paymentMethod: 'Credit Card',
        format: 'pdf',
      },
      responses: { 201: wrap('receipt', 'Receipt') },
      errors: [404],
    },
    async ({ request, ids, actor }) => {
      // The body is optional: an empty request without a Content-Type means "all defaults".
      const input = await readOptionalJsonBody(request, ReceiptGenerateSchema);
      const receipt = await found(
        generateReceipt(ids.parcelId, input, new Date(), actor),
        'Parcel not found',
      );
      return json({ receipt }, { status: 201 });
    },
  ),
});
