import type { CompanyInfo } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';
import { formatAmount } from '~/utils/money';

/** The monthly statement's e-mail: the month's total and what is outstanding, files attached. */
export function statementEmail(
  statement: {
    accountName: string;
    month: string;
    currency: string;
    parcels: unknown[];
    totalAmount: number;
    outstandingAmount: number;
  },
  company: CompanyInfo,
) {
  const money = (amount: number) =>
    `${formatAmount(amount, statement.currency)} ${statement.currency}`;
  const lines = [
    `Your statement for ${statement.month} is attached (PDF and CSV).`,
    `Parcels: ${statement.parcels.length}. Total: ${money(statement.totalAmount)}. Outstanding: ${money(statement.outstandingAmount)}.`,
  ];
  return {
    subject: `Your ${company.name} statement for ${statement.month}`,
    text: [
      `Hello ${statement.accountName},`,
      '',
      ...lines,
      '',
      `${company.name} · ${company.phone} · ${company.email}`,
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(statement.accountName)},</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p>${escapeHtml(`${company.name} · ${company.phone} · ${company.email}`)}</p>`,
  };
}
