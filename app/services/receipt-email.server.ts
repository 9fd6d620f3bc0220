import {
  getReceipt,
  markReceiptEmailed,
  markReceiptEmailFailed,
  type SerializedReceipt,
} from '~/models/receipt.server';
import { receiptEmailText } from '~/emails/receipt.server';
import { recipientLanguage } from '~/lib/i18n.server';
import { getParcelForTemplate } from '~/models/parcel-reads.server';
import { publicCompanyInfo } from '~/lib/env.server';
import { enqueueEmail, type EmailKind } from './email-queue.server';
import { messageIdFor, sendMail, type MailResult } from './mailer.server';
import { renderReceiptFile, renderReceiptHtml } from './receipt-render.server';

export class ReceiptEmailError extends Error {}

export const RECEIPT_EMAIL = 'receipt';

/**
 * Queues a receipt's e-mail to its customer; a worker sends it (retrying a refusing server) and
 * records `emailedAt`, or `emailError` once every attempt failed. Throws ReceiptEmailError when
 * the receipt has no customer e-mail address.
 */
export async function queueReceiptEmail(receipt: SerializedReceipt): Promise<void> {
  if (!receipt.customerEmail)
    throw new ReceiptEmailError('This receipt has no customer e-mail address.');
  await enqueueEmail({ kind: RECEIPT_EMAIL, receiptId: receipt.id });
}

/**
 * Sends a receipt to its customer: the receipt as the HTML body, the file in the receipt's
 * format attached. Rejects with the transport's error when the message is not accepted.
 */
export async function deliverReceiptEmail(
  receipt: SerializedReceipt,
  options: { smtpUrl?: string; messageKey?: string } = {},
): Promise<MailResult> {
  if (!receipt.customerEmail)
    throw new ReceiptEmailError('This receipt has no customer e-mail address.');
  const company = publicCompanyInfo();
  const file = await renderReceiptFile(receipt, receipt.format, company);
  // In the parcel's recipient's language, whoever sends it.
  const parcel = await getParcelForTemplate({ id: receipt.parcelId });
  const language = recipientLanguage(parcel?.recipient?.language);
  const { subject, text, lead } = receiptEmailText(receipt, company, language);
  const result = await sendMail(
    {
      to: receipt.customerEmail,
      subject,
      text,
      html: renderReceiptHtml(receipt, company, { beforeReceipt: lead }),
      attachments: [
        { filename: file.filename, content: file.content, contentType: file.contentType },
      ],
      ...(options.messageKey ? { messageId: messageIdFor(options.messageKey) } : {}),
    },
    { smtpUrl: options.smtpUrl },
  );
  await markReceiptEmailed(receipt.id);
  return result;
}

/** The `receipt` kind of `email.send` job (registered in job-kinds.server.ts). */
export const receiptEmailKind: EmailKind = {
  send: async (payload, job) => {
    // A receipt deleted since it was queued has no one left to e-mail.
    const receipt = await getReceipt(String(payload.receiptId));
    if (!receipt) return;
    await deliverReceiptEmail(receipt, { messageKey: `receipt-${receipt.id}-${job.id}` });
  },
  failed: (payload, error) => markReceiptEmailFailed(String(payload.receiptId), error),
};
