import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listReceipts } from '~/models/receipt.server';
import { ReceiptListQuerySchema } from '~/schemas/receipt';
import { handleApi, methodNotAllowed, parseQuery } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

/** GET /api/receipts?page&limit&status → { receipts, pagination }, newest first. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const query = parseQuery(request, ReceiptListQuerySchema);
    return json(await listReceipts(query));
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
