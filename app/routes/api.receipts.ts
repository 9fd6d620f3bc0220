import { listReceiptChanges, listReceipts } from '~/models/receipt.server';
import { ReceiptListQuerySchema } from '~/schemas/receipt';
import { apiRoute } from '~/http/api.server';
import { apiSyncedList } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  GET: apiSyncedList('viewer', {
    query: ReceiptListQuerySchema,
    key: 'receipts',
    item: 'Receipt',
    list: listReceipts,
    changes: listReceiptChanges,
    summary: 'List receipts, newest first',
    description:
      'Receipts, newest first, a page at a time; `search` matches the receipt number, tracking number or customer.',
  }),
});
