import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  Form,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useSubmit,
} from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ParcelCard } from '~/components/parcels/parcel-card';
import { Pagination } from '~/components/parcels/pagination';
import { Spinner } from '~/components/ui/spinner';
import { listParcels } from '~/models/parcel.server';
import { PARCEL_SEARCH_MAX_LENGTH, PARCEL_STATUSES, PARCELS_PAGE_SIZE } from '~/schemas/constants';
import { ParcelListQuerySchema, type ParcelListQuery } from '~/schemas/parcel';
import { requireUser } from '~/services/auth.server';
import { useLinkNavigation } from '~/utils/link-navigation';

/** A bad page number or status in the address bar shows the first page rather than an error. */
function readQuery(url: URL): ParcelListQuery {
  const parsed = ParcelListQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (parsed.success) return { ...parsed.data, limit: PARCELS_PAGE_SIZE };
  const status = url.searchParams.get('status') ?? '';
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, PARCEL_SEARCH_MAX_LENGTH);
  return {
    page: 1,
    limit: PARCELS_PAGE_SIZE,
    status: (PARCEL_STATUSES as readonly string[]).includes(status)
      ? (status as ParcelListQuery['status'])
      : undefined,
    search: search || undefined,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const query = readQuery(new URL(request.url));
  const filters = { search: query.search ?? '', status: query.status ?? '' };
  try {
    const { parcels, pagination } = await listParcels(query);
    return json({ ...filters, parcels, pagination, loadFailed: false });
  } catch (error) {
    console.error('Could not load parcels:', error);
    const none: Awaited<ReturnType<typeof listParcels>>['parcels'] = [];
    return json({ ...filters, parcels: none, pagination: null, loadFailed: true }, { status: 503 });
  }
}

export const meta: MetaFunction = () => [{ title: 'Parcels · Management dashboard' }];

const SEARCH_DEBOUNCE_MS = 350;

export default function ParcelsTab() {
  const { search, status, parcels, pagination, loadFailed } = useLoaderData<typeof loader>();
  const location = useLocation();
  const onCardClick = useLinkNavigation({ preventScrollReset: true });
  const navigation = useNavigation();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const searchRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLSelectElement>(null);
  // Back/forward and links change the filters: show them, but never under the user's typing.
  useEffect(() => {
    if (searchRef.current && document.activeElement !== searchRef.current)
      searchRef.current.value = search;
    if (statusRef.current) statusRef.current.value = status;
  }, [search, status]);

  const here = `/dashboard/parcels${location.search}`;
  const filtering = Boolean(search || status);
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
          <Link to={here} className="btn-secondary" preventScrollReset>
            {loading ? <Spinner /> : null}
            Refresh
          </Link>
          <Link
            to={`/dashboard/parcels/new${location.search}`}
            className="btn-primary"
            preventScrollReset
          >
            Create Parcel
          </Link>
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
        <div>
          <label htmlFor="parcel-status-filter" className="sr-only">
            Filter by status
          </label>
          <select
            id="parcel-status-filter"
            name="status"
            defaultValue={status}
            ref={statusRef}
            className="field-input"
          >
            <option value="">All Statuses</option>
            {PARCEL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
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
          {pagination ? (
            <p className="text-sm text-gray-600">
              {pagination.totalItems} parcel{pagination.totalItems === 1 ? '' : 's'}
              {pagination.totalPages > 1
                ? ` · page ${pagination.currentPage} of ${pagination.totalPages}`
                : ''}
            </p>
          ) : null}
          {/* Clicks (and Enter) on the cards' links arrive here: see useLinkNavigation. */}
          <div className={`space-y-4 ${loading ? 'opacity-60' : ''}`} onClick={onCardClick}>
            {parcels.map((parcel) => (
              <ParcelCard key={parcel.id} parcel={parcel} search={location.search} />
            ))}
          </div>
          {pagination ? (
            <Pagination
              currentPage={pagination.currentPage}
              totalPages={pagination.totalPages}
              searchParams={new URLSearchParams(location.search)}
              basePath="/dashboard/parcels"
            />
          ) : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
