import type { LoaderFunctionArgs } from '@remix-run/node';
import { RECEIPT_FORMATS } from '~/schemas/constants';
import { renderReceiptFile } from '~/services/receipt-render.server';
import { requireStaffReceipt } from '~/http/receipt-pages.server';
import { fileResponse } from '~/lib/http-cache.server';

/** The receipt as a file in its format (or ?format=pdf|html|txt), sent as a download. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const receipt = await requireStaffReceipt(request, params.receiptId);
  const requested = new URL(request.url).searchParams.get('format');
  const format = RECEIPT_FORMATS.find((f) => f === requested) ?? receipt.format;
  const file = await renderReceiptFile(receipt, format);
  return fileResponse(new Uint8Array(file.content), {
    contentType: file.contentType,
    filename: file.filename,
  });
}
