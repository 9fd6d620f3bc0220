import { useCanEdit } from '~/utils/use-dashboard-user';
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { Form, useFetcher } from '@remix-run/react';
import type { z } from 'zod';
import { FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import type { SerializedReceipt } from '~/models/receipt.server';
import { formatMoney, RECEIPT_FORMATS } from '~/schemas/constants';
import type { ReceiptActionSchema } from '~/schemas/receipt';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';
import type { EntryActions } from '~/components/dashboard/record-list';

const FORMAT_LABELS: Record<string, string> = { pdf: 'PDF', html: 'HTML', txt: 'Text' };

/**
 * One generated receipt with Download (a real file, in the format chosen when it was generated, or
 * in either of the others: the same receipt number in any format), Print (the print page in a new
 * tab) and Email.
 * A download or a new tab doesn't navigate, so with JavaScript a fetcher tells the server, whose
 * answer carries the toast; without JavaScript the file or page simply opens.
 */
export function ReceiptItem({
  receipt,
  formAction,
  lastResult,
}: { receipt: SerializedReceipt } & EntryActions) {
  const { timeZone } = useCompany();
  const canEdit = useCanEdit();
  const [form, fields] = useForm<z.input<typeof ReceiptActionSchema>>({
    id: `receipt-actions-${receipt.id}`,
    lastResult,
    defaultValue: { intent: 'email', receiptId: receipt.id },
  });
  const notify = useFetcher();
  const sending = useIsPending({
    formAction,
    formData: { intent: 'email', receiptId: receipt.id },
  });

  const tell = (intent: 'downloaded' | 'printed') =>
    notify.submit({ intent, receiptId: receipt.id }, { method: 'post', action: formAction });

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono font-semibold">{receipt.receiptNumber}</span>
          <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
            {receipt.status}
          </span>
          <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-700">
            {FORMAT_LABELS[receipt.format] ?? receipt.format}
          </span>
        </p>
        <p className="mt-1 text-sm text-gray-700">
          {receipt.customerName || 'No name'}
          {receipt.customerEmail ? (
            <span className="text-gray-500"> · {receipt.customerEmail}</span>
          ) : null}
        </p>
        <p className="text-sm text-gray-600">
          <span className="font-mono">{receipt.trackingNumber}</span> · {receipt.service} ·{' '}
          {receipt.paymentMethod} ·{' '}
          <span className="font-semibold text-gray-900">{formatMoney(receipt.total)}</span>
        </p>
        <p className="text-xs text-gray-500">
          {formatDateTime(receipt.date, timeZone)}
          {receipt.emailedAt ? ` · e-mailed ${formatDateTime(receipt.emailedAt, timeZone)}` : ''}
        </p>
        {receipt.emailError ? (
          <p className="mt-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            <span className="font-semibold">E-mail error:</span> {receipt.emailError}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <a
          href={`/dashboard/receipts/${receipt.id}/download`}
          download
          className="btn-secondary"
          aria-label={`Download ${receipt.receiptNumber}`}
          onClick={() => tell('downloaded')}
        >
          Download
        </a>
        <span className="flex items-center gap-1 text-sm text-gray-600">
          or as
          {RECEIPT_FORMATS.filter((format) => format !== receipt.format).map((format) => (
            <a
              key={format}
              href={`/dashboard/receipts/${receipt.id}/download?format=${format}`}
              download
              className="rounded px-1 font-medium text-brand-700 underline"
              aria-label={`Download ${receipt.receiptNumber} as ${FORMAT_LABELS[format]}`}
              onClick={() => tell('downloaded')}
            >
              {FORMAT_LABELS[format]}
            </a>
          ))}
        </span>
        <a
          href={`/dashboard/receipts/${receipt.id}/print`}
          target="_blank"
          rel="noopener"
          className="btn-secondary"
          aria-label={`Print ${receipt.receiptNumber}`}
          onClick={() => tell('printed')}
        >
          Print
        </a>
        <Form
          method="post"
          action={formAction}
          {...getFormProps(form)}
          preventScrollReset
          hidden={!canEdit}
        >
          <FormErrors id={form.errorId} errors={Object.values(form.allErrors).flat()} />
          <input {...getInputProps(fields.intent, { type: 'hidden' })} />
          <input {...getInputProps(fields.receiptId, { type: 'hidden' })} />
          <SubmitButton
            pending={sending}
            pendingLabel="Sending..."
            aria-label={`Email ${receipt.receiptNumber}`}
          >
            Email
          </SubmitButton>
        </Form>
      </div>
    </li>
  );
}
