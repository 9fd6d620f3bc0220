import type { CompanyInfo } from '~/lib/env.server';
import { formatMoney } from '~/schemas/constants';

type ReceiptForEmail = {
  receiptNumber: string;
  trackingNumber: string;
  customerName?: string | null;
  total: number;
  paymentMethod: string;
};

/**
 * The subject and text of a receipt's e-mail to its customer. Its HTML is the receipt itself, the
 * printable document the receipts screen also offers (services/receipt-render.server.ts).
 */
export function receiptEmailText(receipt: ReceiptForEmail, company: CompanyInfo) {
  return {
    subject: `Your receipt ${receipt.receiptNumber} from ${company.name}`,
    text: [
      `Hello ${receipt.customerName || 'there'},`,
      '',
      `Thank you for shipping with ${company.name}. Your receipt ${receipt.receiptNumber} for parcel ${receipt.trackingNumber} is attached.`,
      `Total: ${formatMoney(receipt.total)} (${receipt.paymentMethod})`,
      '',
      `${company.name} · ${company.phone} · ${company.email}`,
    ].join('\n'),
  };
}
