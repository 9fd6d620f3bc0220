import { parseWithZod } from '@conform-to/zod/v4';
import { getReceipt } from '~/models/receipt.server';
import { ReceiptActionSchema } from '~/schemas/receipt';
import { requireUser } from './auth.server';

/**
 * The receipt a staff page's URL names, for the signed-in; a plain-text 404 when there is none
 * (the download and print pages answer with the file or document itself, not an app page).
 */
export async function requireStaffReceipt(request: Request, receiptId: string | undefined) {
  await requireUser(request);
  const receipt = await getReceipt(receiptId ?? '');
  if (!receipt)
    throw new Response('Receipt not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  return receipt;
}

/**
 * The Receipts tab's form (a download, a print or an e-mail told of), parsed here so that the
 * tab's page does not load zod in the browser for a form it never validates there.
 */
export function parseReceiptAction(formData: FormData) {
  return parseWithZod(formData, { schema: ReceiptActionSchema });
}
