import { FilterSelect } from '~/components/ui/filter-select';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import {
  Form,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useSubmit,
} from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { bulkCheckboxes, BULK_FORM_ID, ParcelBulkActions } from '~/components/parcels/bulk-actions';
import { ParcelCard } from '~/components/parcels/parcel-card';
import { ParcelTable } from '~/components/parcels/parcel-table';
import { Pagination } from '~/components/parcels/pagination';
import { Spinner } from '~/components/ui/spinner';
import { listAccountNames } from '~/models/account.server';
import { listParcels } from '~/models/parcel-reads.server';
import { hasRole } from '~/schemas/roles';
import {
  PARCEL_SEARCH_MAX_LENGTH,
  PARCEL_STATUSES,
  PARCEL_TABLE_PAGE_SIZES,
  defaultSortOrder,
} from '~/schemas/constants';
import { requireUser, requireUserWithRole } from '~/http/auth.server';
import { parseBulkStatusForm, readParcelTableQuery } from '~/http/parcel-pages.server';
import { redirectWithToast } from '~/lib/flash.server';
import { firstError, readFormData } from '~/lib/form.server';
import { setParcelsStatus, someNumbers } from '~/services/parcel-bulk.server';
import { useLinkNavigation } from '~/utils/link-navigation';
import { parcelListHref } from '~/utils/parcel-list-href';
import { useHydrated } from '~/utils/use-hydrated';

/** The same list at another page (page 1 is the address without `page`). */
function pageUrl(url: URL, page: number) {
  const params = new URLSearchParams(url.search);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const query = readParcelTableQuery(url);
  // What the list shows it is filtered and sorted by: the query but its page, '' for no filter.
  const { page: _page, ...chosen } = query;
  const filters = {
    ...chosen,
    search: query.search ?? '',
    status: query.status ?? '',
    account: query.account ?? '',
    accounts: await listAccountNames(),
    canEdit: hasRole(user, 'staff'),
  };
  let result: Awaited<ReturnType<typeof listParcels>>;
  try {
    result = await listParcels(query);
  } catch (error) {
    console.error('Could not load parcels:', error);
    const none: Awaited<ReturnType<typeof listParcels>>['parcels'] = [];
    return json({ ...filters, parcels: none, pagination: null, loadFailed: true }, { status: 503 });
  }
  // A page past the end (the last parcel of the last page deleted, an old link) goes to the last
  // page there is.
  const { totalPages } = result.pagination;
  if (query.page > Math.max(totalPages, 1)) throw redirect(pageUrl(url, totalPages));
  return json({ ...filters, ...result, loadFailed: false });
}

/**
 * POST /dashboard/parcels (intent=status, ids, newStatus): the table's bulk status change, staff
 * only. Each parcel changes as through its edit form (setParcelsStatus); the answer is the same
 * list with a message saying what changed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseBulkStatusForm(await readFormData(request));
  const back = parcelListHref(new URL(request.url).search);
  if (submission.status !== 'success') {
    return redirectWithToast(request, back, {
      type: 'error',
      title: 'Nothing changed',
      description: `${firstError(submission, 'Invalid input')}.`,
    });
  }
  const { ids, newStatus: status } = submission.value;
  const result = await setParcelsStatus(ids, status, { user, context });
  const parts: string[] = [];
  if (result.done.length) parts.push(`Now ${status}: ${someNumbers(result.done)}.`);
  if (result.unchanged.length) parts.push(`Already ${status}: ${someNumbers(result.unchanged)}.`);
  if (result.missing.length) parts.push(`${result.missing.length} no longer existed.`);
  if (result.failed.length) parts.push(`Failed: ${someNumbers(result.failed)}. Please try again.`);
  const count = result.done.length;
  return redirectWithToast(request, back, {
    type: result.failed.length || (!count && !result.unchanged.length) ? 'error' : 'success',
    title: count
      ? `Status changed for ${count} parcel${count === 1 ? '' : 's'}`
      : 'No status changed',
    description: parts.join(' '),
  });
}

export const meta: MetaFunction = () => [{ title: 'Parcels · Management dashboard' }];

const SEARCH_DEBOUNCE_MS = 350;

const LAYOUTS = [
  { value: 'table', label: 'Table' },
  { value: 'cards', label: 'Cards' },
] as const;

export default function ParcelsTab() {
  const {
    search,
    status,
    sort,
    order,
    limit,
    view,
    account,
    accounts,
    canEdit,
    parcels,
    pagination,
    loadFailed,
  } = useLoaderData<typeof loader>();
  const location = useLocation();
  const onCardClick = useLinkNavigation({ preventScrollReset: true });
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  // How many rows are ticked (with JavaScript): counted from the checkboxes, which stay the
  // browser's own state so the form works the same without JavaScript.
  const [selected, setSelected] = useState(0);
  const countSelected = useCallback(
    () => setSelected(bulkCheckboxes().filter((box) => box.checked).length),
    [],
  );
  useEffect(countSelected, [countSelected, parcels]);
  const selectAll = (checked: boolean) => {
    for (const box of bulkCheckboxes()) box.checked = checked;
    countSelected();
  };
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const searchRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLSelectElement>(null);
  const limitRef = useRef<HTMLSelectElement>(null);
  // Back/forward and links change the filters: show them, but never under the user's typing.
  useEffect(() => {
    if (searchRef.current && document.activeElement !== searchRef.current)
      searchRef.current.value = search;
    if (statusRef.current) statusRef.current.value = status;
    if (limitRef.current) limitRef.current.value = String(limit);
  }, [search, status, limit]);
  const params = new URLSearchParams(location.search);
  // The export takes the list's filters and sort, not its page: every matching parcel.
  const exportParams = new URLSearchParams(params);
  for (const name of ['page', 'limit', 'view']) exportParams.delete(name);
  const exportHref = `/api/parcels/export.csv${exportParams.size ? `?${exportParams}` : ''}`;
  const viewHref = (next: 'table' | 'cards') => {
    const p = new URLSearchParams(params);
    if (next === 'cards') p.set('view', 'cards');
    else p.delete('view');
    const q = p.toString();
    return `/dashboard/parcels${q ? `?${q}` : ''}`;
  };

  const here = `/dashboard/parcels${location.search}`;
  const filtering = Boolean(search || status || account);
  const loading =
    navigation.state === 'loading' &&
    navigation.location.pathname === '/dashboard/parcels' &&
    !navigation.formMethod;

  // With JS the filters apply as you type (debounced) or pick a status; without, the Search button does.
  function onFilterChange(form: HTMLFormElement, debounce: boolean) {
    clearTimeout(timer.current);
    const run = () => submit(form, { replace: true, preventScrollReset: true });
    if (debounce) timer.current = setTimeout(run, SEARCH_DEBOUNCE_MS);
    else run();
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Parcel Management</h1>
        <div className="flex gap-2">
          <a href={exportHref} className="btn-secondary" download>
            Export CSV
          </a>
          {canEdit ? (
            <Link to="/dashboard/parcels/import" className="btn-secondary">
              Import CSV
            </Link>
          ) : null}
          <Link to={here} className="btn-secondary" preventScrollReset>
            {loading ? <Spinner /> : null}
            Refresh
          </Link>
          {canEdit ? (
            <Link
              to={`/dashboard/parcels/new${location.search}${DIALOG_FRAGMENT}`}
              className="btn-primary"
              preventScrollReset
            >
              Create Parcel
            </Link>
          ) : null}
        </div>
      </div>

      <Outlet />

      <Form
        method="get"
        action="/dashboard/parcels"
        role="search"
        aria-label="Filter parcels"
        className="card flex flex-wrap items-end gap-3 p-4"
        onChange={(event) => {
          const target = event.target as HTMLElement;
          onFilterChange(event.currentTarget, target.getAttribute('name') === 'search');
        }}
      >
        <div className="min-w-[16rem] flex-1">
          <label htmlFor="parcel-search" className="sr-only">
            Search parcels
          </label>
          <input
            id="parcel-search"
            type="search"
            name="search"
            defaultValue={search}
            ref={searchRef}
            maxLength={PARCEL_SEARCH_MAX_LENGTH}
            placeholder="Search by tracking number, sender, or recipient..."
            className="field-input"
          />
        </div>
        <FilterSelect
          id="parcel-status-filter"
          name="status"
          label="Filter by status"
          hideLabel
          defaultValue={status}
          ref={statusRef}
          all="All Statuses"
          choices={PARCEL_STATUSES}
        />
        {accounts.length ? (
          <FilterSelect
            id="parcel-account-filter"
            name="account"
            label="Filter by account"
            hideLabel
            defaultValue={account}
            all="All accounts"
            choices={[
              { value: 'none', label: "None — the company's own" },
              ...accounts.map((a) => ({ value: a.id, label: a.name })),
            ]}
          />
        ) : null}
        <FilterSelect
          id="parcel-page-size"
          name="limit"
          label="Rows per page"
          hideLabel
          defaultValue={String(limit)}
          ref={limitRef}
          choices={PARCEL_TABLE_PAGE_SIZES.map((size) => ({
            value: String(size),
            label: `${size} per page`,
          }))}
        />
        {/* The sort and the layout stay as they are when the filters change. */}
        <input type="hidden" name="sort" value={sort} />
        <input type="hidden" name="order" value={order} />
        {view === 'cards' ? <input type="hidden" name="view" value="cards" /> : null}
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>

      {loadFailed ? (
        <div role="alert" className="card flex flex-wrap items-center justify-between gap-3 p-4">
          <p className="font-medium text-red-600">Failed to load parcels</p>
          <Link to={here} className="btn-secondary">
            Retry
          </Link>
        </div>
      ) : parcels.length === 0 ? (
        <p className="card p-8 text-center text-gray-600">
          {filtering
            ? 'No parcels found matching your criteria.'
            : 'No parcels found. Create your first parcel to get started.'}
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            {pagination ? (
              <p className="text-sm text-gray-600">
                {pagination.totalItems} parcel{pagination.totalItems === 1 ? '' : 's'}
                {pagination.totalPages > 1
                  ? ` · page ${pagination.currentPage} of ${pagination.totalPages}`
                  : ''}
              </p>
            ) : null}
            <nav aria-label="Layout" className="flex gap-1 text-sm">
              {LAYOUTS.map(({ value, label }) => (
                <Link
                  key={value}
                  to={viewHref(value)}
                  aria-current={view === value ? 'page' : undefined}
                  className={view === value ? 'btn-primary' : 'btn-secondary'}
                  preventScrollReset
                >
                  {label}
                </Link>
              ))}
            </nav>
          </div>
          {view === 'table' ? (
            <ParcelBulkActions search={location.search} canEdit={canEdit} selected={selected} />
          ) : null}
          {/* Clicks (and Enter) on the rows' and cards' links arrive here: see useLinkNavigation. */}
          <div
            className={loading ? 'opacity-60' : ''}
            onClick={onCardClick}
            onChange={(event) => {
              if ((event.target as HTMLInputElement).name === 'ids') countSelected();
            }}
          >
            {view === 'cards' ? (
              <div className="space-y-4">
                {parcels.map((parcel) => (
                  <ParcelCard
                    key={parcel.id}
                    parcel={parcel}
                    search={location.search}
                    canEdit={canEdit}
                  />
                ))}
              </div>
            ) : (
              <ParcelTable
                parcels={parcels}
                search={location.search}
                sort={sort}
                order={order}
                defaultOrder={defaultSortOrder}
                canEdit={canEdit}
                selectable
                formId={BULK_FORM_ID}
                selectAll={
                  hydrated
                    ? {
                        checked: selected > 0 && selected === parcels.length,
                        indeterminate: selected > 0 && selected < parcels.length,
                        onChange: selectAll,
                      }
                    : undefined
                }
              />
            )}
          </div>
          {pagination ? <Pagination pagination={pagination} basePath="/dashboard/parcels" /> : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
