import type { CompanyInfo } from '~/lib/env.server';
import { formatAmount } from '~/utils/money';
import type { Statement } from './statements.server';
import { fitText, pdfDocument } from './label-render.server';
import { PDF_FONT, PDF_FONT_BOLD } from './pdf-fonts.server';

/**
 * An account's monthly statement on A4, drawn with the label's pieces (the document, the fitted
 * text): a line per parcel with its price, the adjustments, the total, payments and what is
 * outstanding, and the month's delivery rates.
 */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const LINE = 16;

const percent = (rate: number | null) =>
  rate === null ? '—' : `${Math.round(rate * 1000) / 10} %`;

export function renderStatementPdf(statement: Statement, company: CompanyInfo): Promise<Buffer> {
  const { doc, done } = pdfDocument(
    A4,
    {
      Title: `Statement ${statement.month} ${statement.accountName}`,
      Author: company.name,
      Subject: `${statement.parcels.length} parcels, total ${formatAmount(statement.totalAmount, statement.currency)} ${statement.currency}`,
    },
    true,
  );
  const width = A4[0] - 2 * MARGIN;
  const amountWidth = 90;
  let y = A4[1];
  const page = () => {
    doc.addPage({ size: A4, margin: 0 });
    y = MARGIN;
  };
  const row = (text: string, amount: string, bold = false) => {
    if (y + LINE > A4[1] - MARGIN) page();
    const font = bold ? PDF_FONT_BOLD : PDF_FONT;
    fitText(
      doc,
      text,
      { x: MARGIN, y, width: width - amountWidth - 8, height: LINE },
      font,
      9.5,
      6.5,
      {
        lineBreak: false,
      },
    );
    fitText(
      doc,
      amount,
      { x: MARGIN + width - amountWidth, y, width: amountWidth, height: LINE },
      font,
      9.5,
      6.5,
      {
        lineBreak: false,
        align: 'right',
      },
    );
    y += LINE;
  };
  const money = (amount: number) =>
    `${formatAmount(amount, statement.currency)} ${statement.currency}`;
  page();
  fitText(
    doc,
    `${company.name} · Statement ${statement.month}`,
    { x: MARGIN, y, width, height: 22 },
    PDF_FONT_BOLD,
    15,
    10,
    { lineBreak: false },
  );
  y += 26;
  row(statement.accountName, '', true);
  row(
    `Delivered ${statement.delivered} · first-attempt delivery rate ${percent(statement.firstAttemptRate)} · on-time rate ${percent(statement.onTimeRate)}`,
    '',
  );
  y += 8;
  row(`Parcels (${statement.parcels.length})`, 'Price', true);
  for (const p of statement.parcels)
    row(
      `${p.bookedAt.slice(0, 10)}  ${p.trackingNumber}  ${p.serviceType}  ${p.recipientName}`,
      money(p.priceAmount),
    );
  if (statement.adjustments.length) {
    y += 8;
    row('Adjustments', '', true);
    for (const a of statement.adjustments)
      row(`${a.kind === 'credit' ? 'Credit' : 'Charge'}: ${a.note}`, money(a.amount));
  }
  y += 8;
  row('Total', money(statement.totalAmount), true);
  for (const p of statement.payments) row(`Payment ${p.date ?? ''} ${p.note}`, money(-p.amount));
  row('Outstanding', money(statement.outstandingAmount), true);
  doc.end();
  return done;
}
