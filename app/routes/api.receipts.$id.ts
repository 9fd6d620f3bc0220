import { getReceipt, getReceiptVersioned } from '~/models/receipt.server';
import { ReceiptUpdateSchema } from '~/schemas/receipt';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleteReceipt, updateReceipt } from '~/services/receipts.server';

const receipt = apiRecord('receipt', { idLabel: 'receipt id', notFound: 'Receipt not found' });

export const { loader, action } = apiRoute({
  /** GET /api/receipts/:id → { receipt }. */
  GET: receipt.get('viewer', getReceipt),
  /**
   * PUT { customerName?, customerEmail?, paymentMethod?, format?, status? } → { receipt }; 412 for
   * an If-Match that is not its ETag now.
   */
  PUT: receipt.update('staff', ReceiptUpdateSchema, updateReceipt, getReceiptVersioned),
  /** DELETE → { success, message }. */
  DELETE: receipt.change('staff', deleteReceipt, () => ({
    success: true,
    message: 'Receipt deleted',
  })),
});
