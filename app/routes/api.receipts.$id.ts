import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { deleteReceipt, getReceipt, updateReceipt } from '~/models/receipt.server';
import { ReceiptUpdateSchema } from '~/schemas/receipt';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { auditRecord } from '~/services/audit.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';

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
    if (request.method === 'PUT') {
      const input = await readJsonBody(request, ReceiptUpdateSchema);
      const before = await getReceipt(id);
      const receipt = await updateReceipt(id, input);
      if (!receipt) throw new ApiError(404, NOT_FOUND);
      await auditRecord({ user, context, via: 'api' }, 'update', 'receipt', {
        label: receipt.receiptNumber,
        before,
        after: receipt,
      });
      return json({ receipt });
    }
    const before = await getReceipt(id);
    if (!before || !(await deleteReceipt(id))) throw new ApiError(404, NOT_FOUND);
    await auditRecord({ user, context, via: 'api' }, 'delete', 'receipt', {
      label: before.receiptNumber,
      before,
    });
    return json({ success: true, message: 'Receipt deleted' });
  });
}
