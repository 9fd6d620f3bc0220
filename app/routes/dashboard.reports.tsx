import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { Field, FormErrors, SelectField } from '~/components/ui/field';
import { reportFromRequest } from '~/http/report-pages.server';
import { REPORT_GROUPS } from '~/schemas/run';
import type { PerformanceRow } from '~/models/parcel-reports.server';

/**
 * Delivery performance for staff: the days and the grouping in a GET form, the figures the
 * database computed in a table, and the same as CSV.
 */
export async function loader(args: LoaderFunctionArgs) {
  return json(await reportFromRequest(args));
}

export const meta: MetaFunction = () => [{ title: 'Reports · Management dashboard' }];

type Row = PerformanceRow;

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

const COLUMNS: Column<Row>[] = [
  { header: 'Group', cell: (row) => row.key, rowHeader: true },
  { header: 'Delivered', cell: (row) => row.delivered },
  { header: 'First attempt', cell: (row) => percent(row.firstAttemptRate) },
  { header: 'On time', cell: (row) => percent(row.onTimeRate) },
  { header: 'Failed attempts', cell: (row) => row.failedAttempts },
  {
    header: 'By reason',
    cell: (row) =>
      Object.entries(row.failedByReason)
        .map(([reason, count]) => `${reason.replace(/_/g, ' ')}: ${count}`)
        .join(', ') || '—',
  },
  {
    header: 'Stops per run',
    cell: (row) =>
      row.averageStopsPerRun === null ? '—' : Math.round(row.averageStopsPerRun * 10) / 10,
  },
];

export default function Reports() {
  const { asked, rows, error } = useLoaderData<typeof loader>();
  const query = new URLSearchParams(asked);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Delivery performance</h1>
      <Form method="get" className="card flex flex-wrap items-end gap-3 p-4">
        <Field label="From" name="from" type="date" defaultValue={asked.from} />
        <Field label="To" name="to" type="date" defaultValue={asked.to} />
        <SelectField
          label="Group by"
          name="groupBy"
          defaultValue={asked.groupBy}
          options={[...REPORT_GROUPS]}
        />
        <button type="submit" className="btn-secondary min-h-11">
          Show
        </button>
        <a
          href={`/dashboard/reports.csv?${query}`}
          className="inline-flex min-h-11 items-center underline"
        >
          Export CSV
        </a>
      </Form>
      <FormErrors errors={error ? [error] : null} />
      <section aria-labelledby="report-heading" className="card p-4">
        <h2 id="report-heading" className="mb-2 text-lg font-semibold">
          {asked.from} to {asked.to}, by {asked.groupBy}
        </h2>
        {rows.length ? (
          <ScrollRegion label="Delivery performance table">
            <DataTable
              columns={COLUMNS}
              rows={rows}
              rowKey={(row) => row.key}
              caption="Delivery performance"
            />
          </ScrollRegion>
        ) : (
          <p className="text-gray-700">No deliveries or failed attempts in these days.</p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
