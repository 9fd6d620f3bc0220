import PDFDocument from 'pdfkit';
import type { SerializedReceipt } from '~/models/receipt.server';
import { formatMoney, PARCEL_CREATION_COST } from '~/schemas/constants';
import {
  formatReceiptNumber,
  RECEIPT_CONTENT_TYPES,
  receiptFilename,
  type ReceiptFormat,
} from '~/schemas/receipt';
import { formatDate } from '~/utils/format';
import { publicCompanyInfo, type CompanyInfo } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { PDF_FONT, PDF_FONT_BOLD, printable, registerPdfFonts } from './pdf-fonts.server';

/** What a receipt document needs; the stored receipt's JSON form fits. */
export type ReceiptDocument = Pick<
  SerializedReceipt,
  | 'receiptNumber'
  | 'trackingNumber'
  | 'customerName'
  | 'customerEmail'
  | 'amount'
  | 'service'
  | 'date'
  | 'status'
  | 'tax'
  | 'subtotal'
  | 'total'
  | 'paymentMethod'
>;

export function receiptLineItems(receipt: ReceiptDocument) {
  return [
    {
      description: `${receipt.service} shipping, parcel ${receipt.trackingNumber}`,
      quantity: 1,
      amount: receipt.amount,
    },
  ];
}

function taxLabel(receipt: ReceiptDocument) {
  const rate =
    receipt.subtotal > 0 ? Math.round((receipt.tax / receipt.subtotal) * 10000) / 100 : 0;
  return `Tax (${rate}%)`;
}

/**
 * A complete, self-contained, printable HTML document (inline CSS, print rules). `extras` lets the
 * print page add its toolbar and script; they must already be HTML-safe.
 */
export function renderReceiptHtml(
  receipt: ReceiptDocument,
  company: CompanyInfo = publicCompanyInfo(),
  extras: { beforeReceipt?: string; afterReceipt?: string } = {},
): string {
  const e = (value: string | number) => escapeHtml(String(value));
  const items = receiptLineItems(receipt)
    .map(
      (item) =>
        `<tr><td>${e(item.description)}</td><td class="num">${e(item.quantity)}</td><td class="num">${e(formatMoney(item.amount))}</td></tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt ${e(receipt.receiptNumber)}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; padding: 24px; background: #f3f4f6; color: #111827; font: 14px/1.5 Arial, Helvetica, sans-serif; }
  .receipt { max-width: 720px; margin: 0 auto; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 32px; }
  header { display: flex; justify-content: space-between; gap: 16px; border-bottom: 2px solid #1e40af; padding-bottom: 16px; margin-bottom: 24px; }
  h1 { margin: 0; font-size: 22px; color: #1e40af; }
  h2 { margin: 0 0 4px; font-size: 18px; text-align: right; }
  .muted { color: #6b7280; }
  .meta { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin-bottom: 24px; }
  .meta dt { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #6b7280; }
  .meta dd { margin: 0 0 8px; font-weight: bold; }
  table { width: 100%; border-collapse: collapse; }
  th, td { padding: 8px; border-bottom: 1px solid #e5e7eb; text-align: left; }
  th { background: #f9fafb; font-size: 12px; text-transform: uppercase; color: #4b5563; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { border-bottom: none; }
  tfoot tr.total td { font-size: 16px; font-weight: bold; border-top: 2px solid #111827; }
  footer { margin-top: 32px; font-size: 12px; text-align: center; }
  @media print {
    @page { margin: 16mm; }
    body { background: #fff; padding: 0; }
    .receipt { border: none; border-radius: 0; padding: 0; max-width: none; }
    .no-print { display: none !important; }
  }
</style>
</head>
<body>
${extras.beforeReceipt ?? ''}
<main class="receipt">
  <header>
    <div>
      <h1>${e(company.name)}</h1>
      <div class="muted">${e(company.address)}</div>
      <div class="muted">${e(company.phone)} &middot; ${e(company.email)}</div>
    </div>
    <div>
      <h2>Receipt</h2>
      <div><strong>${e(receipt.receiptNumber)}</strong></div>
      <div class="muted">${e(formatDate(receipt.date, company.timeZone))}</div>
    </div>
  </header>
  <dl class="meta">
    <div><dt>Billed to</dt><dd>${e(receipt.customerName || '—')}</dd><dd class="muted">${e(receipt.customerEmail || '')}</dd></div>
    <div><dt>Tracking number</dt><dd>${e(receipt.trackingNumber)}</dd><dt>Service</dt><dd>${e(receipt.service)}</dd></div>
    <div><dt>Payment method</dt><dd>${e(receipt.paymentMethod)}</dd></div>
  </dl>
  <table>
    <thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Amount</th></tr></thead>
    <tbody>
${items}
    </tbody>
    <tfoot>
      <tr><td colspan="2" class="num">Subtotal</td><td class="num">${e(formatMoney(receipt.subtotal))}</td></tr>
      <tr><td colspan="2" class="num">${e(taxLabel(receipt))}</td><td class="num">${e(formatMoney(receipt.tax))}</td></tr>
      <tr class="total"><td colspan="2" class="num">Total</td><td class="num">${e(formatMoney(receipt.total))}</td></tr>
    </tfoot>
  </table>
  <footer class="muted">Thank you for shipping with ${e(company.name)}.</footer>
</main>
${extras.afterReceipt ?? ''}
</body>
</html>
`;
}

/** Plain text with labels and amounts in aligned columns. */
export function renderReceiptText(
  receipt: ReceiptDocument,
  company: CompanyInfo = publicCompanyInfo(),
): string {
  const width = 56;
  const rule = '-'.repeat(width);
  const row = (label: string, value: string) => `${label.padEnd(18)}${value}`;
  const money = (label: string, amount: number) =>
    `${label.padStart(width - 12)}${formatMoney(amount).padStart(12)}`;
  const lines = [
    company.name,
    company.address,
    `${company.phone} | ${company.email}`,
    '='.repeat(width),
    'RECEIPT',
    row('Receipt number:', receipt.receiptNumber),
    row('Date:', formatDate(receipt.date, company.timeZone)),
    '',
    row('Customer:', receipt.customerName || '-'),
    row('E-mail:', receipt.customerEmail || '-'),
    row('Tracking number:', receipt.trackingNumber),
    row('Service:', receipt.service),
    row('Payment method:', receipt.paymentMethod),
    rule,
    `${'Description'.padEnd(width - 12)}${'Amount'.padStart(12)}`,
    rule,
    ...receiptLineItems(receipt).map((item) => {
      const amount = formatMoney(item.amount).padStart(12);
      const description =
        item.description.length > width - 13
          ? `${item.description.slice(0, width - 16)}...`
          : item.description;
      return `${description.padEnd(width - 12)}${amount}`;
    }),
    rule,
    money('Subtotal:', receipt.subtotal),
    money(`${taxLabel(receipt)}:`, receipt.tax),
    money('Total:', receipt.total),
    '='.repeat(width),
    `Thank you for shipping with ${company.name}.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** A real PDF document. `compress: false` keeps the page text readable (used by tests). */
export function renderReceiptPdf(
  receipt: ReceiptDocument,
  company: CompanyInfo = publicCompanyInfo(),
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = registerPdfFonts(
      new PDFDocument({
        size: 'A4',
        margin: 50,
        compress: options.compress ?? true,
        info: {
          Title: `Receipt ${receipt.receiptNumber}`,
          Author: company.name,
          Subject: `Receipt for parcel ${receipt.trackingNumber}`,
        },
      }),
    );
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const left = 50;
    const right = doc.page.width - 50;
    const contentWidth = right - left;

    doc
      .font(PDF_FONT_BOLD)
      .fontSize(20)
      .fillColor('#1e40af')
      .text(printable(company.name), left, 50);
    doc
      .font(PDF_FONT)
      .fontSize(10)
      .fillColor('#6b7280')
      .text(printable(company.address))
      .text(printable(`${company.phone}  |  ${company.email}`));
    doc
      .font(PDF_FONT_BOLD)
      .fontSize(16)
      .fillColor('#111827')
      .text('RECEIPT', left, 50, { width: contentWidth, align: 'right' });
    doc
      .font(PDF_FONT)
      .fontSize(11)
      .text(receipt.receiptNumber, { width: contentWidth, align: 'right' });
    doc.text(formatDate(receipt.date, company.timeZone), { width: contentWidth, align: 'right' });

    doc.moveTo(left, 110).lineTo(right, 110).lineWidth(2).strokeColor('#1e40af').stroke();

    const details: Array<[string, string]> = [
      ['Customer', receipt.customerName || '-'],
      ['E-mail', receipt.customerEmail || '-'],
      ['Tracking number', receipt.trackingNumber],
      ['Service', receipt.service],
      ['Payment method', receipt.paymentMethod],
    ];
    let y = 130;
    for (const [label, value] of details) {
      doc
        .font(PDF_FONT_BOLD)
        .fontSize(10)
        .fillColor('#4b5563')
        .text(label, left, y, { width: 130 });
      doc
        .font(PDF_FONT)
        .fillColor('#111827')
        .text(printable(value), left + 130, y, { width: contentWidth - 130 });
      y += 18;
    }

    y += 16;
    doc.rect(left, y, contentWidth, 22).fill('#f3f4f6');
    doc.font(PDF_FONT_BOLD).fontSize(10).fillColor('#374151');
    doc.text('Description', left + 8, y + 6, { width: contentWidth - 180 });
    doc.text('Qty', right - 170, y + 6, { width: 50, align: 'right' });
    doc.text('Amount', right - 110, y + 6, { width: 102, align: 'right' });
    y += 30;
    doc.font(PDF_FONT).fillColor('#111827');
    for (const item of receiptLineItems(receipt)) {
      doc.text(printable(item.description), left + 8, y, { width: contentWidth - 180 });
      doc.text(String(item.quantity), right - 170, y, { width: 50, align: 'right' });
      doc.text(formatMoney(item.amount), right - 110, y, { width: 102, align: 'right' });
      y += 22;
    }
    doc.moveTo(left, y).lineTo(right, y).lineWidth(1).strokeColor('#e5e7eb').stroke();
    y += 10;

    const totals: Array<[string, number, boolean]> = [
      ['Subtotal', receipt.subtotal, false],
      [taxLabel(receipt), receipt.tax, false],
      ['Total', receipt.total, true],
    ];
    for (const [label, amount, strong] of totals) {
      doc.font(strong ? PDF_FONT_BOLD : PDF_FONT).fontSize(strong ? 12 : 10);
      doc.text(printable(label), right - 270, y, { width: 150, align: 'right' });
      doc.text(formatMoney(amount), right - 110, y, { width: 102, align: 'right' });
      y += strong ? 22 : 18;
    }

    doc
      .font(PDF_FONT)
      .fontSize(9)
      .fillColor('#6b7280')
      .text(printable(`Thank you for shipping with ${company.name}.`), left, y + 30, {
        width: contentWidth,
        align: 'center',
      });
    doc.end();
  });
}

export type RenderedReceipt = { filename: string; contentType: string; content: Buffer };

/** The receipt as a file in the chosen format. */
export async function renderReceiptFile(
  receipt: ReceiptDocument,
  format: ReceiptFormat,
  company: CompanyInfo = publicCompanyInfo(),
): Promise<RenderedReceipt> {
  const filename = receiptFilename(receipt.receiptNumber, format);
  const contentType = RECEIPT_CONTENT_TYPES[format];
  if (format === 'pdf')
    return { filename, contentType, content: await renderReceiptPdf(receipt, company) };
  if (format === 'html')
    return {
      filename,
      contentType,
      content: Buffer.from(renderReceiptHtml(receipt, company), 'utf8'),
    };
  return {
    filename,
    contentType,
    content: Buffer.from(renderReceiptText(receipt, company), 'utf8'),
  };
}

/** A sample receipt for the template preview when none has been generated yet. */
export function sampleReceipt(now: Date = new Date()): ReceiptDocument {
  return {
    receiptNumber: formatReceiptNumber(now.getUTCFullYear(), 0),
    trackingNumber: 'SWX123456789',
    customerName: 'Sample Customer',
    customerEmail: 'customer@example.com',
    amount: PARCEL_CREATION_COST,
    service: 'Standard',
    date: now.toISOString(),
    status: 'generated',
    tax: 0,
    subtotal: PARCEL_CREATION_COST,
    total: PARCEL_CREATION_COST,
    paymentMethod: 'Credit Card',
  };
}
