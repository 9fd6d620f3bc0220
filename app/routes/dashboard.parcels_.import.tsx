import { getFormProps, useForm, type Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { fieldLabel, Readable } from '~/components/audit/audit-list';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { FormErrors } from '~/components/ui/field';
import { CsvPageHeading } from '~/components/ui/csv-page-heading';
import {
  getPendingImport,
  PendingImportTooLarge,
  savePendingImport,
  takePendingImport,
} from '~/models/pending-import.server';
import {
  PARCEL_IMPORT_MAX_ROWS,
  PARCEL_IMPORT_PREVIEW_COLUMNS as PREVIEW_COLUMNS,
  type ParcelImportPreviewRow as PreviewRow,
} from '~/schemas/constants';
import { ParcelImportFormSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/http/auth.server';
import { env } from '~/lib/env.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormOrUpload } from '~/http/multipart.server';
import { invalidForm } from '~/lib/form-reply.server';
import { checkParcelCsv, importParcelCsv, type ImportError } from '~/services/parcel-import.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useCompany } from '~/utils/use-company';
import { formatDate } from '~/utils/format';
import { useIsPending } from '~/utils/use-is-pending';

const PAGE = '/dashboard/parcels/import';
/** Errors listed on the page; the rest are counted. */
const ERRORS_SHOWN = 500;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const id = new URL(request.url).searchParams.get('id');
  const pending = id ? await getPendingImport(id, user.id) : null;
  return json({
    pending: pending ? { ...pending, preview: pending.preview as PreviewRow[] } : null,
    expired: Boolean(id && !pending),
    maxRows: PARCEL_IMPORT_MAX_ROWS,
    maxMegabytes: Math.floor(env.IMPORT_BODY_LIMIT_BYTES / (1024 * 1024)),
  });
}

type Check = {
  fileName: string;
  rows: number;
  preview: PreviewRow[];
  errors: ImportError[];
  errorCount: number;
  truncated: boolean;
};

/** The page again with the form's messages and, once a file was read, what was found in it. */
function failed(
  submission: Submission<unknown>,
  check: Check | null,
  options: Parameters<typeof invalidForm>[1] = { hideFields: ['file'] },
) {
  return invalidForm(submission, { ...options, into: (reply) => ({ reply, check }) });
}

const fileError = (message: string) => ({
  hideFields: ['file'],
  fieldErrors: { file: [message] },
});

/**
 * Upload: the file is read and checked in full (every row, and the rows of stored parcels against
 * them: which would change, and how). With errors, the page shows them and the first rows, and offers no import. Without,
 * the file is kept server-side under a random id (PendingImport, an hour) and the page shows the
 * preview with an "Import N parcels" button that sends only that id. Confirm: the file is taken
 * out (once), checked again against the database as it is now, and written, all rows or none.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const form = await readFormOrUpload(request, env.IMPORT_BODY_LIMIT_BYTES);
  const submission = parseWithZod(form, {
    schema: ParcelImportFormSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== 'success') return failed(submission, null);
  const value = submission.value;

  if (value.intent === 'upload') {
    const fileName = (value.file.name || 'upload.csv').slice(0, 200);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await value.file.arrayBuffer());
    } catch {
      return failed(
        submission,
        null,
        fileError('The file must be UTF-8 text (save it as "CSV UTF-8")'),
      );
    }
    const check = await checkParcelCsv(text);
    const summary: Check = {
      fileName,
      rows: check.rows,
      preview: check.preview,
      errors: check.errors.slice(0, ERRORS_SHOWN),
      errorCount: check.errors.length,
      truncated: check.truncated,
    };
    if (check.errors.length) return failed(submission, summary);
    if (!check.rows)
      return failed(
        submission,
        summary,
        fileError('The file has no parcel rows under its header row'),
      );
    let id: string;
    try {
      id = await savePendingImport({
        userId: user.id,
        fileName,
        rows: check.rows,
        created: check.parcels.length,
        updated: check.updates.length,
        unchanged: check.unchanged,
        preview: check.preview,
        csv: text,
      });
    } catch (error) {
      if (!(error instanceof PendingImportTooLarge)) throw error;
      return failed(submission, null, {
        ...fileError('The file is too large to import from the dashboard'),
        status: 413,
      });
    }
    return redirect(`${PAGE}?id=${id}`);
  }

  const pending = await takePendingImport(value.id, user.id);
  if (!pending)
    return failed(submission, null, {
      formErrors: ['This upload has expired or was already imported: upload the file again'],
      status: 409,
    });
  const result = await importParcelCsv(pending.csv, {
    who: { user, context, via: 'page' },
    previewed: pending,
  });
  if (result.errors.length)
    return failed(
      submission,
      {
        fileName: pending.fileName,
        rows: result.rows,
        preview: result.preview,
        errors: result.errors.slice(0, ERRORS_SHOWN),
        errorCount: result.errors.length,
        truncated: result.truncated,
      },
      { formErrors: ['Nothing was imported: the file has errors now'] },
    );
  const written = result.created + result.updated;
  return redirectWithToast(request, '/dashboard/parcels', {
    type: 'success',
    title: `Imported ${written} parcel${written === 1 ? '' : 's'}`,
    description: `${pending.fileName}: ${importSummary(result)}`,
  });
}

export const meta: MetaFunction = () => [
  { title: 'Import Parcels · Parcels · Management dashboard' },
];

function importSummary({
  created,
  updated,
  unchanged,
}: {
  created: number;
  updated: number;
  unchanged: number;
}) {
  return `${created} new, ${updated} updated, ${unchanged} unchanged`;
}

const COLUMN_LABELS: Record<(typeof PREVIEW_COLUMNS)[number], string> = {
  trackingNumber: 'Tracking number',
  status: 'Status',
  serviceType: 'Service',
  recipientName: 'Recipient',
  recipientAddress: 'Recipient address',
  weight: 'Weight',
  estimatedDelivery: 'Estimated delivery',
};

/** Columns whose empty cell leaves a stored parcel's value as it is (parcel-import.server.ts). */
const KEPT_WHEN_EMPTY = new Set<string>(['status', 'serviceType', 'estimatedDelivery']);

/** A date cell as the parcel table shows it; a cell that is not a date (a row with errors) as typed. */
function PreviewDate({ value }: { value: string }) {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value))) return value;
  return <time dateTime={value}>{formatDate(value)}</time>;
}

/** A changed value as the audit trail shows it. */
function ChangedValue({
  field,
  value,
}: {
  field: string;
  value: NonNullable<PreviewRow['changes']>[number]['before'];
}) {
  const { timeZone } = useCompany();
  return <Readable value={value} timeZone={timeZone} field={field} />;
}

/** What a checked row does: New, Unchanged, or Update with each field before → after. */
function PreviewChange({ row }: { row: PreviewRow }) {
  if (!row.action) return <span className="text-gray-500">—</span>;
  return (
    <>
      <span className="font-medium">{row.action}</span>
      {row.mistyped ? (
        <p className="mt-1 text-xs text-amber-800">
          No parcel has this number, and its last digit does not match the eight before it: if it
          should update a parcel, check it for a typo.
        </p>
      ) : null}
      {row.changes?.length ? (
        <ul className="mt-1 space-y-0.5 text-xs text-gray-700">
          {row.changes.map((change) => (
            <li key={change.field}>
              {fieldLabel(change.field)}:{' '}
              <ChangedValue field={change.field} value={change.before} />
              {' → '}
              <ChangedValue field={change.field} value={change.after} />
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

const PREVIEW_TABLE_COLUMNS: Column<PreviewRow>[] = [
  {
    header: 'Row',
    rowHeader: true,
    cellClassName: 'font-normal text-gray-600',
    cell: (row) => row.row,
  },
  {
    header: 'Change',
    cellClassName: 'min-w-[12rem] max-w-[24rem]',
    cell: (row) => <PreviewChange row={row} />,
  },
  ...PREVIEW_COLUMNS.map((c): Column<PreviewRow> => ({
    header: COLUMN_LABELS[c],
    cellClassName: 'max-w-[16rem] truncate',
    cell: (row) =>
      !row[c] ? (
        <span className="text-gray-500">
          {row.action === 'New' || !KEPT_WHEN_EMPTY.has(c) ? '(default)' : '(as stored)'}
        </span>
      ) : c === 'estimatedDelivery' ? (
        <PreviewDate value={row[c]} />
      ) : (
        row[c]
      ),
  })),
];

const ERROR_TABLE_COLUMNS: Column<ImportError>[] = [
  { header: 'Row', cell: (error) => error.row },
  { header: 'Column', cellClassName: 'font-mono', cell: (error) => error.field ?? '—' },
  { header: 'Problem', cell: (error) => error.message },
];

function PreviewTable({ rows, total }: { rows: PreviewRow[]; total: number }) {
  if (!rows.length) return null;
  return (
    <ScrollRegion label="Preview" className="card overflow-x-auto">
      <DataTable
        caption={
          rows.length < total ? `The first ${rows.length} of ${total} rows` : `All ${total} rows`
        }
        captionClassName="px-4 py-2 text-left font-medium text-gray-900"
        columns={PREVIEW_TABLE_COLUMNS}
        rows={rows}
        rowKey={(row) => row.row}
      />
    </ScrollRegion>
  );
}

function ErrorTable({ check }: { check: Check }) {
  const rowsWithErrors = new Set(check.errors.map((e) => e.row)).size;
  return (
    <section aria-labelledby="import-errors" className="card space-y-3 p-4">
      <h2 id="import-errors" className="text-lg font-semibold text-red-700">
        Nothing can be imported from {check.fileName}
      </h2>
      <p role="alert" className="text-sm text-gray-700">
        {check.errorCount} error{check.errorCount === 1 ? '' : 's'} in{' '}
        {rowsWithErrors === 1 ? '1 row' : `${rowsWithErrors} rows`}
        {check.truncated || check.errorCount > check.errors.length ? ' (the first are listed)' : ''}
        . Fix the file and upload it again: no parcel is imported until every row is right. Rows are
        numbered as in a spreadsheet, the header being row 1.
      </p>
      <ScrollRegion label="Errors">
        <DataTable
          caption="Errors by row"
          columns={ERROR_TABLE_COLUMNS}
          rows={check.errors}
          rowKey={(_, i) => i}
        />
      </ScrollRegion>
    </section>
  );
}

export default function ImportParcelsPage() {
  const { pending, expired, maxRows, maxMegabytes } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const importing = useIsPending({ formAction: PAGE, formData: { intent: 'confirm' } });
  const uploading = useIsPending({ formAction: PAGE, formData: { intent: 'upload' } });
  const [form, fields] = useForm({
    id: 'parcel-import-upload',
    lastResult: data?.reply,
    shouldValidate: 'onSubmit',
  });
  const check = data?.check ?? null;
  // After a failed confirmation the preview of the file that was pending no longer applies.
  const showPending = pending && !data;
  const fileErrorId = 'import-file-error';
  return (
    <div className="space-y-4">
      <CsvPageHeading
        title="Import Parcels"
        templateHref={`${PAGE}/template.csv`}
        back={{ to: '/dashboard/parcels', label: 'Back to parcels' }}
      />
      <p className="text-sm text-gray-700">
        A CSV file with a header row naming its columns: the columns of <strong>Export CSV</strong>{' '}
        (any order; <code>recipientName</code> and <code>recipientAddress</code> are needed, the
        rest may be left out or empty). A row without a tracking number gets a new one; a row with
        the tracking number of a stored parcel updates it with the columns the file has (an edited
        export re-imports), and the preview says what changes. Up to{' '}
        {maxRows.toLocaleString('en-US')} rows and {maxMegabytes} MB, UTF-8. The file is checked
        first; then every parcel is imported, or none.
      </p>

      {expired && !data ? (
        <p role="alert" className="card p-4 text-sm text-red-700">
          This upload has expired or was already imported: upload the file again.
        </p>
      ) : null}

      {showPending ? (
        <section aria-labelledby="import-ready" className="space-y-3">
          <div className="card flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <h2 id="import-ready" className="text-lg font-semibold text-gray-900">
                {pending.fileName}: {pending.rows} parcel{pending.rows === 1 ? '' : 's'} ready
              </h2>
              <p className="text-sm text-gray-600">
                {importSummary(pending)}. Every row was checked; nothing is written yet.
              </p>
            </div>
            <Form method="post" action={PAGE} className="flex gap-2">
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="id" value={pending.id} />
              <SubmitButton pending={importing}>
                Import {pending.rows} parcel{pending.rows === 1 ? '' : 's'}
              </SubmitButton>
              <Link to={PAGE} className="btn-secondary">
                Cancel
              </Link>
            </Form>
          </div>
          <PreviewTable rows={pending.preview} total={pending.rows} />
        </section>
      ) : (
        <Form
          method="post"
          action={PAGE}
          encType="multipart/form-data"
          {...getFormProps(form)}
          className="card space-y-4 p-4"
        >
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="upload" />
          <div>
            <label htmlFor="import-file" className="field-label">
              CSV file
            </label>
            <input
              id="import-file"
              name={fields.file.name}
              type="file"
              accept=".csv,text/csv"
              required
              className="field-input"
              aria-invalid={fields.file.errors?.length ? true : undefined}
              aria-describedby={fields.file.errors?.length ? fileErrorId : undefined}
            />
            {fields.file.errors?.length ? (
              <ul id={fileErrorId} className="field-error">
                {fields.file.errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <SubmitButton pending={uploading}>Upload and preview</SubmitButton>
        </Form>
      )}

      {check && check.errorCount ? (
        <>
          <ErrorTable check={check} />
          <PreviewTable rows={check.preview} total={check.rows} />
        </>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
