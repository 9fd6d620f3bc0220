import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { trackingNumberColumn } from '~/components/account/parcel-column';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { FilterSelect, FilterText } from '~/components/ui/filter-select';
import { Pagination } from '~/components/parcels/pagination';
import { StatusBadge } from '~/components/parcels/status-badge';
import { listParcels } from '~/models/parcel-reads.server';
import type { SerializedParcel } from '~/models/parcel.server';
import { PARCEL_STATUSES } from '~/schemas/constants';
import { requireShipper } from '~/http/auth.server';
import { portalFilterParams, portalParcelQuery } from '~/http/portal-pages.server';
import { formatDate } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

const PAGE_SIZE = 25;
const DAY_FILTERS = [
  { name: 'from', label: 'Created from' },
  { name: 'to', label: 'Created to' },
] as const;

/** The account's parcels: search, status, days, pages, and the CSV of all it finds. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const { query, filters, problem } = portalParcelQuery(request);
  const { parcels, pagination } = await listParcels({
    ...filters,
    page: query.page,
    limit: PAGE_SIZE,
    scope: user.account,
  });
  return json({ parcels, pagination, query, problem, csv: portalFilterParams(query) });
}

type Row = Omit<SerializedParcel, 'events'>;

export default function AccountParcels() {
  const { parcels, pagination, query, problem, csv } = useLoaderData<typeof loader>();
  const { timeZone } = useCompany();
  const columns: Column<Row>[] = [
    trackingNumberColumn(),
    { header: 'Recipient', cell: (p) => p.recipient.name },
    { header: 'Reference', className: 'hidden sm:table-cell', cell: (p) => p.reference },
    { header: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
    {
      header: 'Created',
      className: 'hidden sm:table-cell',
      cell: (p) => formatDate(p.createdAt, timeZone),
    },
  ];
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Parcels</h1>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <FilterText
          id="search"
          name="search"
          label="Search"
          type="search"
          defaultValue={query.search ?? ''}
          placeholder="Number, recipient or reference"
        />
        <FilterSelect
          id="status"
          name="status"
          label="Status"
          defaultValue={query.status ?? ''}
          all="All statuses"
          choices={PARCEL_STATUSES}
        />
        {DAY_FILTERS.map(({ name, label }) => (
          <FilterText
            key={name}
            id={name}
            name={name}
            label={label}
            type="date"
            defaultValue={query[name] ?? ''}
          />
        ))}
        <button type="submit" className="btn-secondary">
          Filter
        </button>
        <a href={`/account/parcels.csv?${csv}`} className="btn-secondary" download>
          Export CSV
        </a>
      </Form>
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {parcels.length ? (
        <ScrollRegion label="Parcels" className="card overflow-x-auto">
          <DataTable caption="Parcels" columns={columns} rows={parcels} rowKey={(p) => p.id} />
        </ScrollRegion>
      ) : (
        <p className="card p-6 text-center text-gray-600">No parcels found.</p>
      )}
      <Pagination pagination={pagination} basePath="/account/parcels" />
    </div>
  );
}
