import type { CompanyInfo } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { translator } from '~/lib/i18n.server';
import { languageDirection, type Language } from '~/schemas/languages';

type ReceiptForEmail = {
  receiptNumber: string;
  trackingNumber: string;
  customerName?: string | null;
  total: number;
  paymentMethod: string;
};

/**
 * The subject, text and opening words of a receipt's e-mail to its customer, in `language` (the
 * parcel's recipient's). Its HTML is the receipt itself, the printable document the receipts
 * screen also offers (services/receipt-render.server.ts), under these words.
 */
export function receiptEmailText(
  receipt: ReceiptForEmail,
  company: CompanyInfo,
  language: Language,
) {
  const t = translator(language);
  const hello = receipt.customerName
    ? t('receipt.hello', { name: receipt.customerName })
    : t('receipt.helloThere');
  const thanks = t('receipt.thanks', {
    company: company.name,
    receiptNumber: receipt.receiptNumber,
    trackingNumber: receipt.trackingNumber,
  });
  const total = t('receipt.total', {
    total: new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(
      receipt.total,
    ),
    method: receipt.paymentMethod,
  });
  return {
    subject: t('receipt.subject', { receiptNumber: receipt.receiptNumber, company: company.name }),
    text: [
      hello,
      '',
      thanks,
      total,
      '',
      `${company.name} · ${company.phone} · ${company.email}`,
    ].join('\n'),
    /** Above the receipt in the HTML body: the greeting and thanks, in the customer's language. */
    lead: `<div lang="${language}" dir="${languageDirection(language)}" style="max-width:720px;margin:0 auto 16px"><p>${escapeHtml(hello)}</p><p>${escapeHtml(thanks)}</p></div>`,
  };
}
