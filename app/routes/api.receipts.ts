import { json } from '@remix-run/node';
import { listReceiptChanges, listReceipts } from '~/models/receipt.server';
import { ReceiptListQuerySchema } from '~/schemas/receipt';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  /** GET /api/receipts?page&limit&status → { receipts, pagination }, newest first. */
  GET: apiHandler({ role: 'viewer', query: ReceiptListQuerySchema }, async ({ query }) =>
    json(
      query.cursor || query.updatedSince
        ? await listReceiptChanges(query)
        : await listReceipts(query),
    ),
  ),
});
