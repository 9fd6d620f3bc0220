import { json } from '@remix-run/node';
import { listReceiptChanges, listReceipts } from '~/models/receipt.server';
import { ReceiptListQuerySchema } from '~/schemas/receipt';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { SYNC_NOTE, syncedList } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      query: ReceiptListQuerySchema,
      summary: 'List receipts, newest first',
      description: `Receipts, newest first, a page at a time; \`search\` matches the receipt number, tracking number or customer.${SYNC_NOTE}`,
      responses: { 200: syncedList('receipts', 'Receipt') },
    },
    async ({ query }) =>
      json(
        query.cursor || query.updatedSince
          ? await listReceiptChanges(query)
          : await listReceipts(query),
      ),
  ),
});
