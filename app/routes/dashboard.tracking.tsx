import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData, useNavigate, useParams } from '@remix-run/react';
import { lazy, Suspense } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { pickerMessage } from '~/components/parcels/parcel-picker-search';
import { searchParcelsForTracking } from '~/models/tracking-event.server';
import { PARCEL_SEARCH_MAX_LENGTH, PARCELS_PAGE_SIZE } from '~/schemas/constants';
import { requireUser } from '~/http/auth.server';
import { useHydrated } from '~/utils/use-hydrated';
import { ParcelChoice } from '~/components/parcels/parcel-choice';

// The picker (Headless UI's Combobox) loads once the page is interactive; until then, and
// without JavaScript, the plain search form stands in for it.
const ParcelCombobox = lazy(() =>
  import('~/components/parcels/parcel-combobox').then((module) => ({
    default: module.ParcelCombobox,
  })),
);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const search = (new URL(request.url).searchParams.get('search') ?? '')
    .trim()
    .slice(0, PARCEL_SEARCH_MAX_LENGTH);
  // One more than is shown tells whether the search should be narrowed to reach the others.
  const found = await searchParcelsForTracking({ search, limit: PARCELS_PAGE_SIZE + 1 });
  const truncated = found.length > PARCELS_PAGE_SIZE;
  return json({ search, parcels: found.slice(0, PARCELS_PAGE_SIZE), truncated });
}

export const meta: MetaFunction = () => [{ title: 'Tracking · Management dashboard' }];

export default function TrackingTab() {
  const { search, parcels, truncated } = useLoaderData<typeof loader>();
  const { parcelId } = useParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const linkSearch = search ? `?${new URLSearchParams({ search })}` : '';
  // Searching keeps the selected parcel open.
  const searchForm = (
    <Form
      method="get"
      action={parcelId ? `/dashboard/tracking/${parcelId}` : '/dashboard/tracking'}
      role="search"
    >
      <label htmlFor="tracking-search" className="field-label">
        Search parcels
      </label>
      <div className="flex gap-2">
        <input
          id="tracking-search"
          type="search"
          name="search"
          defaultValue={search}
          maxLength={PARCEL_SEARCH_MAX_LENGTH}
          placeholder="Search by tracking number, sender, or recipient..."
          className="field-input"
        />
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </div>
    </Form>
  );

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Tracking History</h1>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start">
        <section aria-labelledby="tracking-parcels-heading" className="card p-4">
          <h2 id="tracking-parcels-heading" className="mb-3 text-lg font-semibold">
            Parcels
          </h2>
          {hydrated ? (
            // Choosing a parcel opens it; the list below stays as it was.
            <Suspense fallback={searchForm}>
              <ParcelCombobox
                label="Search parcels"
                clearAfterChoice
                onChange={(parcel) => {
                  if (parcel) navigate(`/dashboard/tracking/${parcel.id}${linkSearch}`);
                }}
              />
            </Suspense>
          ) : (
            searchForm
          )}
          {truncated ? (
            <p className="mt-2 text-xs text-gray-600" aria-live="polite">
              {pickerMessage({ search, shown: parcels.length, truncated })}
            </p>
          ) : null}
          {parcels.length === 0 ? (
            <p className="py-6 text-center text-sm text-gray-600">
              {search ? 'No parcels found matching your search.' : 'No parcels yet.'}
            </p>
          ) : (
            <ul
              aria-label="Parcels to select"
              className="mt-3 max-h-72 divide-y divide-gray-100 overflow-y-auto lg:max-h-[calc(100vh-18rem)]"
            >
              {parcels.map((parcel) => (
                <li key={parcel.id}>
                  <NavLink
                    to={`/dashboard/tracking/${parcel.id}${linkSearch}`}
                    preventScrollReset
                    className={({ isActive }) =>
                      `block rounded-md px-3 py-2 hover:bg-gray-50 ${isActive ? 'bg-brand-50 ring-1 ring-brand-500' : ''}`
                    }
                  >
                    <ParcelChoice
                      parcel={parcel}
                      numberClassName="font-mono text-sm font-semibold"
                      partiesClassName="text-gray-600"
                    />
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
