import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData } from '@remix-run/react';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { Field, FormErrors, TextareaField } from '~/components/ui/field';
import { CsvPageHeading } from '~/components/ui/csv-page-heading';
import { SubmitButton } from '~/components/ui/submit-button';
import { requireShipper } from '~/http/auth.server';
import { readFormOrUpload } from '~/http/multipart.server';
import { env } from '~/lib/env.server';
import { redirectWithToast } from '~/lib/flash.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import {
  BULK_BOOKING_COLUMNS,
  BULK_BOOKING_MAX_BYTES,
  BULK_BOOKING_MAX_ROWS,
  BulkBookingFormSchema,
} from '~/schemas/bulk-booking';
import {
  bookBulk,
  checkBulkBooking,
  type BulkCheck,
  type BulkRow,
} from '~/services/bulk-booking.server';
import { formatMoney } from '~/utils/money';
import { useIsPending } from '~/utils/use-is-pending';

const PAGE = '/account/send/bulk';

/**
 * Bulk booking: a CSV pasted or uploaded (multipart, so it works without JavaScript) is checked
 * and priced row by row; "Book all" sends the text back with the count and total shown, and the
 * server checks and prices it again before booking every row or none (bulk-booking.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireShipper(request);
  return json({});
}

type BulkAnswer = { reply: FormReply | null; csv: string; check: BulkCheck | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireShipper(request);
  const form = await readFormOrUpload(request, env.BODY_LIMIT_BYTES);
  const submission = parseWithZod(form, { schema: BulkBookingFormSchema });
  const refuse = (
    options: Parameters<typeof invalidForm>[1] = {},
    csv = '',
    check: BulkCheck | null = null,
  ) =>
    invalidForm<BulkAnswer>(submission, {
      hideFields: ['file', 'csv'],
      ...options,
      into: (reply) => ({ reply, csv, check }),
    });
  if (submission.status !== 'success') return refuse();
  const value = submission.value;

  let csv = value.csv ?? '';
  if (value.intent === 'preview' && value.file && value.file.size > 0) {
    try {
      csv = new TextDecoder('utf-8', { fatal: true }).decode(await value.file.arrayBuffer());
    } catch {
      return refuse({
        fieldErrors: { file: ['The file must be UTF-8 text (save it as "CSV UTF-8")'] },
      });
    }
    if (csv.length > BULK_BOOKING_MAX_BYTES)
      return refuse({
        fieldErrors: { file: [`At most ${BULK_BOOKING_MAX_BYTES / 1024} KB of CSV at once`] },
      });
  }

  if (value.intent === 'preview') {
    const check = await checkBulkBooking(csv, user);
    return json<BulkAnswer>({ reply: null, csv, check }, { status: check.ok ? 200 : 400 });
  }
  const result = await bookBulk(
    csv,
    { count: value.count, totalAmount: value.totalAmount },
    { user, context, via: 'page' },
  );
  if (!result.booked)
    return refuse({ formErrors: [result.message], status: 409 }, csv, result.check);
  const total = result.parcels.reduce((sum, parcel) => sum + (parcel.price?.amount ?? 0), 0);
  const currency = result.parcels[0]!.price!.currency;
  return redirectWithToast(request, `${PAGE}/${result.batchId}`, {
    type: 'success',
    title: `Booked ${result.parcels.length} parcel${result.parcels.length === 1 ? '' : 's'}`,
    description: formatMoney({ amount: total, currency }),
  });
}

export const meta: MetaFunction = () => [
  { title: 'Book parcels from a CSV · Your shipping account' },
];

function Problems({ row }: { row: BulkRow }) {
  if (row.price) return <>{formatMoney(row.price)}</>;
  if (!row.problems.length) return <span className="text-gray-500">—</span>;
  return (
    <ul className="space-y-0.5 text-red-700">
      {row.problems.map((problem) => (
        <li key={`${problem.field}:${problem.message}`}>
          {problem.field ? <code className="text-xs">{problem.field}</code> : null}
          {problem.field ? ': ' : null}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

const PREVIEW_COLUMNS: Column<BulkRow>[] = [
  {
    header: 'Row',
    rowHeader: true,
    cellClassName: 'font-normal text-gray-600',
    cell: (r) => r.row,
  },
  { header: 'Recipient', cell: (r) => r.recipientName },
  { header: 'Address', cellClassName: 'max-w-[14rem] truncate', cell: (r) => r.recipientAddress },
  { header: 'Postcode', cell: (r) => r.recipientPostalCode },
  { header: 'Country', cell: (r) => r.recipientCountry },
  { header: 'Service', cell: (r) => r.serviceType },
  { header: 'Weight (kg)', cell: (r) => r.weight },
  { header: 'Reference', cell: (r) => r.reference },
  {
    header: 'Price or problems',
    cellClassName: 'min-w-[14rem]',
    cell: (r) => <Problems row={r} />,
  },
];

function Preview({ check, csv }: { check: BulkCheck; csv: string }) {
  const booking = useIsPending({ formAction: PAGE, formData: { intent: 'book' } });
  const withProblems = check.rows.filter((row) => row.problems.length).length;
  return (
    <section aria-labelledby="bulk-preview" className="space-y-3">
      <div className="card space-y-2 p-4">
        <h2 id="bulk-preview" className="text-lg font-semibold text-gray-900">
          {check.ok
            ? `${check.count} parcel${check.count === 1 ? '' : 's'} ready: ${formatMoney(check.total!)}`
            : 'Nothing can be booked yet'}
        </h2>
        {check.ok ? (
          <Form method="post" action={PAGE} className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="book" />
            <input type="hidden" name="csv" value={csv} />
            <input type="hidden" name="count" value={check.count} />
            <input type="hidden" name="totalAmount" value={check.total!.amount} />
            <p className="text-sm text-gray-600">
              Every row was checked and priced; nothing is booked yet. The prices are checked again
              when you book.
            </p>
            <SubmitButton pending={booking} pendingLabel="Booking...">
              Book all {check.count} parcel{check.count === 1 ? '' : 's'}
            </SubmitButton>
          </Form>
        ) : (
          <div role="alert" className="space-y-1 text-sm text-red-700">
            {check.fileProblems.map((problem) => (
              <p key={problem}>{problem}</p>
            ))}
            {withProblems ? (
              <p>
                {withProblems === 1 ? '1 row has' : `${withProblems} rows have`} problems: fix them
                in the CSV and preview again. No parcel is booked until every row is right.
              </p>
            ) : null}
            {!check.fileProblems.length && !withProblems ? (
              <p>The CSV has no parcel rows under its header row.</p>
            ) : null}
          </div>
        )}
      </div>
      {check.rows.length ? (
        <ScrollRegion label="Preview" className="card overflow-x-auto">
          <DataTable
            caption={`Preview: ${check.rows.length} row${check.rows.length === 1 ? '' : 's'}, numbered as in a spreadsheet (the header is row 1)`}
            captionClassName="px-4 py-2 text-left font-medium text-gray-900"
            columns={PREVIEW_COLUMNS}
            rows={check.rows}
            rowKey={(row) => row.row}
          />
        </ScrollRegion>
      ) : null}
    </section>
  );
}

export default function BulkBookingPage() {
  const data = useActionData<typeof action>();
  const previewing = useIsPending({ formAction: PAGE, formData: { intent: 'preview' } });
  const [form, fields] = useForm({
    id: 'bulk-booking',
    lastResult: data?.reply,
    shouldValidate: 'onSubmit',
  });
  const csv = data?.csv ?? '';
  return (
    <div className="space-y-6">
      <CsvPageHeading
        title="Book parcels from a CSV"
        templateHref={`${PAGE}/template.csv`}
        back={{ to: '/account/send', label: 'Send one parcel' }}
      />
      <p className="text-sm text-gray-700">
        Paste a CSV or upload one, up to {BULK_BOOKING_MAX_ROWS} parcels. Each is sent from your
        pickup address, on account, at your prices. The preview shows each row&apos;s price or what
        is wrong with it; then <strong>Book all</strong> books every row at once, or none: a row
        with a problem must be fixed first. You get one PDF with every label, 4 × 6 in, one a page.
      </p>
      <details className="card p-4 text-sm">
        <summary className="cursor-pointer font-medium text-gray-900">The columns</summary>
        <p className="mt-2 text-gray-700">
          The first row names the columns, in any order; leave out those you do not need.
        </p>
        <ScrollRegion label="Columns">
          <DataTable
            caption="Columns of the CSV"
            columns={[
              { header: 'Column', rowHeader: true, cell: ([name]) => <code>{name}</code> },
              { header: 'What it holds', cell: ([, what]) => what },
            ]}
            rows={BULK_BOOKING_COLUMNS}
            rowKey={([name]) => name}
          />
        </ScrollRegion>
      </details>

      {data?.reply ? <FormErrors id={form.errorId} errors={form.errors} /> : null}

      <Form
        method="post"
        action={PAGE}
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="card space-y-4 p-4"
      >
        <input type="hidden" name="intent" value="preview" />
        <TextareaField
          id="bulk-csv"
          label="CSV text"
          name={fields.csv.name}
          rows={6}
          defaultValue={csv}
          errors={fields.csv.errors}
        />
        <Field
          id="bulk-file"
          label="Or a CSV file"
          name={fields.file.name}
          type="file"
          accept=".csv,text/csv"
          errors={fields.file.errors}
        />
        <SubmitButton pending={previewing} pendingLabel="Pricing...">
          Preview prices
        </SubmitButton>
      </Form>

      {data?.check ? <Preview check={data.check} csv={csv} /> : null}
    </div>
  );
}
