import { getReceipt, getReceiptVersioned } from '~/models/receipt.server';
import { ReceiptUpdateSchema } from '~/schemas/receipt';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleted } from '~/http/api-operation.server';
import { deleteReceipt, updateReceipt } from '~/services/receipts.server';

const receipt = apiRecord('receipt', { item: 'Receipt' });

export const { loader, action } = apiRoute({
  GET: receipt.get('viewer', getReceipt, {
    summary: 'One receipt',
    description: 'One receipt, with its number, amounts and payment method.',
  }),
  PUT: receipt.update('staff', ReceiptUpdateSchema, updateReceipt, {
    versioned: getReceiptVersioned,
    summary: 'Change the fields given',
    description: 'Changes the fields given (customer, payment method, format).',
    bodyExample: { paymentMethod: 'Bank Transfer' },
  }),
  DELETE: receipt.change('staff', deleteReceipt, {
    summary: 'Delete a receipt',
    description: 'Deletes a receipt; its number is never given again.',
    responses: { 200: deleted() },
    answer: () => ({ success: true, message: 'Receipt deleted' }),
  }),
});
