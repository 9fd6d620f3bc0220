import { markReceiptEmailed, type SerializedReceipt } from '~/models/receipt.server';
import { formatMoney } from '~/schemas/constants';
import { publicCompanyInfo } from './env.server';
import { sendMail, type MailResult } from './mailer.server';
import { renderReceiptFile, renderReceiptHtml } from './receipt-render.server';

export class ReceiptEmailError extends Error {}

/**
 * E-mails a receipt to its customer: the receipt as the HTML body, the file in the receipt's
 * format attached. Rejects with the transport's error when the message is not accepted.
 */
export async function emailReceipt(
  receipt: SerializedReceipt,
  options: { smtpUrl?: string } = {},
): Promise<MailResult> {
  if (!receipt.customerEmail)
    throw new ReceiptEmailError('This receipt has no customer e-mail address.');
  const company = publicCompanyInfo();
  const file = await renderReceiptFile(receipt, receipt.format, company);
  const result = await sendMail(
    {
      to: receipt.customerEmail,
      subject: `Your receipt ${receipt.receiptNumber} from ${company.name}`,
      text: [
        `Hello ${receipt.customerName || 'there'},`,
        '',
        `Thank you for shipping with ${company.name}. Your receipt ${receipt.receiptNumber} for parcel ${receipt.trackingNumber} is attached.`,
        `Total: ${formatMoney(receipt.total)} (${receipt.paymentMethod})`,
        '',
        `${company.name} · ${company.phone} · ${company.email}`,
      ].join('\n'),
      html: renderReceiptHtml(receipt, company),
      attachments: [
        { filename: file.filename, content: file.content, contentType: file.contentType },
      ],
    },
    options,
  );
  await markReceiptEmailed(receipt.id);
  return result;
}
