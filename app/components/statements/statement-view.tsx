import type { ReactNode } from 'react';
import { CardSection } from '~/components/ui/card-section';
import { formatAmount } from '~/utils/money';
import type { Statement } from '~/services/statements.server';

/**
 * One account's monthly statement as the portal and the staff's page show it: the month's
 * rates, each parcel at its price, the adjustments, the total, payments and what is outstanding,
 * with its CSV and PDF (the API's own answer, which the signed-in session may read).
 */

const percent = (rate: number | null) =>
  rate === null ? '—' : `${Math.round(rate * 1000) / 10} %`;

export function StatementView({
  statement,
  children,
}: {
  statement: Statement;
  children?: ReactNode;
}) {
  const money = (amount: number) =>
    `${formatAmount(amount, statement.currency)} ${statement.currency}`;
  const file = `/api/accounts/${statement.accountId}/statements/${statement.month}?format=`;
  return (
    <CardSection headingId="statement-heading" title={`Statement ${statement.month}`}>
      <p className="mb-3 flex flex-wrap gap-4 text-sm">
        <a href={`${file}pdf`} className="text-brand-700 underline">
          Download PDF
        </a>
        <a href={`${file}csv`} className="text-brand-700 underline">
          Download CSV
        </a>
      </p>
      <dl className="mb-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-gray-600">Delivered</dt>
          <dd className="font-semibold">{statement.delivered}</dd>
        </div>
        <div>
          <dt className="text-gray-600">First-attempt delivery rate</dt>
          <dd className="font-semibold">{percent(statement.firstAttemptRate)}</dd>
        </div>
        <div>
          <dt className="text-gray-600">On-time rate</dt>
          <dd className="font-semibold">{percent(statement.onTimeRate)}</dd>
        </div>
        <div>
          <dt className="text-gray-600">Outstanding</dt>
          <dd className="font-semibold">{money(statement.outstandingAmount)}</dd>
        </div>
      </dl>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          Parcels, adjustments and payments of {statement.month}
        </caption>
        <thead>
          <tr className="border-b border-gray-200">
            <th scope="col" className="py-1">
              Booked
            </th>
            <th scope="col">Item</th>
            <th scope="col" className="text-end">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {statement.parcels.map((p) => (
            <tr key={p.parcelId} className="border-b border-gray-100">
              <td className="py-1">{p.bookedAt.slice(0, 10)}</td>
              <td>
                {p.trackingNumber} · {p.serviceType}
              </td>
              <td className="text-end">{money(p.priceAmount)}</td>
            </tr>
          ))}
          {statement.adjustments.map((a) => (
            <tr key={a.id} className="border-b border-gray-100">
              <td className="py-1" />
              <td>
                {a.kind === 'credit' ? 'Credit' : 'Charge'}: {a.note}
              </td>
              <td className="text-end">{money(a.amount)}</td>
            </tr>
          ))}
          <tr className="font-semibold">
            <td className="py-1" />
            <td>Total</td>
            <td className="text-end">{money(statement.totalAmount)}</td>
          </tr>
          {statement.payments.map((p) => (
            <tr key={p.id}>
              <td className="py-1">{p.date}</td>
              <td>Payment{p.note ? `: ${p.note}` : ''}</td>
              <td className="text-end">{money(-p.amount)}</td>
            </tr>
          ))}
          <tr className="font-semibold">
            <td className="py-1" />
            <td>Paid {money(statement.paidAmount)} · Outstanding</td>
            <td className="text-end">{money(statement.outstandingAmount)}</td>
          </tr>
        </tbody>
      </table>
      {children}
    </CardSection>
  );
}

/** The months a statement may be read for: this one and the eleven before, newest first. */
export function recentMonths(thisMonth: string, count = 12): string[] {
  const [y, m] = thisMonth.split('-').map(Number);
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y!, m! - 1 - i, 1)).toISOString().slice(0, 7),
  );
}
