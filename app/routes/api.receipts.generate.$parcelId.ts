import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { ReceiptGenerateSchema } from '~/schemas/receipt';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { generateReceipt } from '~/services/receipts.server';

export function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(['POST']);
}

/** POST /api/receipts/generate/:parcelId with an optional JSON body → 201 { receipt }. */
export function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    const parcelId = requireObjectId(params.parcelId, 'parcel id');
    return idempotent(request, async () => {
      // The body is optional: an empty request without a Content-Type means "all defaults".
      const hasBody = request.headers.has('content-type') || (await request.clone().text()) !== '';
      const input = hasBody ? await readJsonBody(request, ReceiptGenerateSchema) : {};
      const receipt = await generateReceipt(parcelId, input, new Date(), {
        user,
        context,
        via: 'api',
      });
      if (!receipt) throw new ApiError(404, 'Parcel not found');
      return json({ receipt }, { status: 201 });
    });
  });
}
