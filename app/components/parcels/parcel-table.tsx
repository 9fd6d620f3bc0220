import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import type { SerializedParcel } from '~/models/parcel.server';
import type { ParcelSortKey, SortOrder } from '~/schemas/constants';
import { formatDate } from '~/utils/format';
import { ParcelActionsMenu } from './parcel-actions-menu';
import { PriorityBadge, StatusBadge } from './status-badge';
import { useCompany } from '~/utils/use-company';

type RowParcel = Omit<SerializedParcel, 'events'>;

const COLUMNS: Array<{ key: ParcelSortKey; label: string }> = [
  { key: 'trackingNumber', label: 'Tracking number' },
  { key: 'recipient', label: 'Recipient' },
  { key: 'city', label: 'City' },
  { key: 'service', label: 'Service' },
  { key: 'status', label: 'Status' },
  { key: 'priority', label: 'Priority' },
  { key: 'estimatedDelivery', label: 'Estimated delivery' },
  { key: 'createdAt', label: 'Created' },
];

/** The address of the list sorted by `key`: the other order when it is already sorted by it. */
export function sortHref(
  basePath: string,
  searchParams: URLSearchParams,
  key: ParcelSortKey,
  current: { sort: ParcelSortKey; order: SortOrder },
  defaultOrder: (key: ParcelSortKey) => SortOrder,
) {
  const params = new URLSearchParams(searchParams);
  params.delete('page');
  const order =
    current.sort === key ? (current.order === 'asc' ? 'desc' : 'asc') : defaultOrder(key);
  params.set('sort', key);
  params.set('order', order);
  return `${basePath}?${params}`;
}

/**
 * The staff parcel list as a table: one compact row per parcel, columns sorted through links
 * (so sorting works without JavaScript), and a <details> menu of real links per row. On narrow
 * screens each row becomes a small block with the column names before the values, so nothing
 * scrolls sideways and the menus are never clipped.
 */
export function ParcelTable({
  parcels,
  search,
  sort,
  order,
  defaultOrder,
  canEdit,
  selectable,
  formId,
  selectAll,
}: {
  parcels: RowParcel[];
  search: string;
  sort: ParcelSortKey;
  order: SortOrder;
  defaultOrder: (key: ParcelSortKey) => SortOrder;
  canEdit: boolean;
  /** Adds a checkbox per row, belonging to the form `formId` (the bulk actions). */
  selectable?: boolean;
  formId?: string;
  /** A "select all on this page" checkbox in the header (given only with JavaScript). */
  selectAll?: { checked: boolean; indeterminate: boolean; onChange: (checked: boolean) => void };
}) {
  const { timeZone } = useCompany();
  const searchParams = new URLSearchParams(search);
  const cell = 'block px-3 py-1 md:table-cell md:py-2 md:align-middle';
  const label =
    'before:mr-2 before:text-xs before:font-semibold before:uppercase before:text-gray-500 before:content-[attr(data-label)] md:before:content-none';
  return (
    <table className="card block w-full text-sm md:table">
      <caption className="sr-only">Parcels</caption>
      <thead className="sr-only border-b border-gray-200 bg-gray-50 text-left md:not-sr-only md:table-header-group">
        <tr>
          {selectable ? (
            <th scope="col" className="px-3 py-2">
              {selectAll ? (
                <input
                  type="checkbox"
                  aria-label="Select all parcels on this page"
                  checked={selectAll.checked}
                  ref={(box) => {
                    if (box) box.indeterminate = selectAll.indeterminate;
                  }}
                  onChange={(event) => selectAll.onChange(event.target.checked)}
                  className="h-4 w-4"
                />
              ) : (
                <span className="sr-only">Select</span>
              )}
            </th>
          ) : null}
          {COLUMNS.map((column) => {
            const active = column.key === sort;
            return (
              <th
                key={column.key}
                scope="col"
                aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                className="whitespace-nowrap px-3 py-2 font-semibold text-gray-700"
              >
                <a
                  href={sortHref(
                    '/dashboard/parcels',
                    searchParams,
                    column.key,
                    { sort, order },
                    defaultOrder,
                  )}
                  data-client-link
                  className="inline-flex items-center gap-1 hover:text-brand-700 hover:underline"
                >
                  {column.label}
                  <span aria-hidden="true" className="text-xs text-gray-500">
                    {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                  <span className="sr-only">
                    {active ? `, sorted ${order === 'asc' ? 'ascending' : 'descending'}` : ', sort'}
                  </span>
                </a>
              </th>
            );
          })}
          <th scope="col" className="px-3 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="block divide-y divide-gray-200 md:table-row-group">
        {parcels.map((parcel) => {
          const base = `/dashboard/parcels/${parcel.id}`;
          return (
            <tr
              key={parcel.id}
              data-parcel-id={parcel.id}
              className="relative block py-2 hover:bg-gray-50 md:table-row md:py-0"
            >
              {selectable ? (
                <td className={cell}>
                  <input
                    type="checkbox"
                    name="ids"
                    value={parcel.id}
                    form={formId}
                    aria-label={`Select ${parcel.trackingNumber}`}
                    className="h-4 w-4"
                  />
                </td>
              ) : null}
              <th scope="row" className={`${cell} text-left font-normal`}>
                <a
                  href={`${base}${search}${DIALOG_FRAGMENT}`}
                  data-client-link
                  data-discover="true"
                  className="font-mono font-semibold text-brand-700 hover:underline"
                >
                  {parcel.trackingNumber}
                </a>
              </th>
              <td className={`${cell} ${label}`} data-label="Recipient">
                {parcel.recipient.name || '—'}
              </td>
              <td className={`${cell} ${label}`} data-label="City">
                {parcel.destinations[0]?.city || '—'}
              </td>
              <td className={`${cell} ${label}`} data-label="Service">
                {parcel.serviceType}
              </td>
              <td className={`${cell} ${label}`} data-label="Status">
                <StatusBadge status={parcel.status} />
              </td>
              <td className={`${cell} ${label}`} data-label="Priority">
                <PriorityBadge priority={parcel.priority} />
              </td>
              <td className={`${cell} ${label} whitespace-nowrap`} data-label="Estimated delivery">
                {formatDate(parcel.estimatedDelivery)}
              </td>
              <td className={`${cell} ${label} whitespace-nowrap`} data-label="Created">
                {formatDate(parcel.createdAt, timeZone)}
              </td>
              <td className="absolute right-2 top-2 md:static md:table-cell md:px-3 md:py-2 md:text-right">
                <ParcelActionsMenu
                  parcel={parcel}
                  search={search}
                  canEdit={canEdit}
                  className="relative inline-block text-left"
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
