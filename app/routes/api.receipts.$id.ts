import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getReceipt } from '~/models/receipt.server';
import { ReceiptUpdateSchema } from '~/schemas/receipt';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { deleteReceipt, updateReceipt } from '~/services/receipts.server';

const NOT_FOUND = 'Receipt not found';

/** GET /api/receipts/:id → { receipt }. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'receipt id');
    const receipt = await getReceipt(id);
    if (!receipt) throw new ApiError(404, NOT_FOUND);
    return jsonWithEtag(request, { receipt });
  });
}

/** PUT { customerName?, customerEmail?, paymentMethod?, format?, status? } → { receipt }; DELETE → { success, message }. */
export function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'receipt id');
    const actor = { user, context, via: 'api' } as const;
    if (request.method === 'PUT') {
      const input = await readJsonBody(request, ReceiptUpdateSchema);
      const receipt = await updateReceipt(id, input, actor);
      if (!receipt) throw new ApiError(404, NOT_FOUND);
      return json({ receipt });
    }
    if (!(await deleteReceipt(id, actor))) throw new ApiError(404, NOT_FOUND);
    return json({ success: true, message: 'Receipt deleted' });
  });
}
