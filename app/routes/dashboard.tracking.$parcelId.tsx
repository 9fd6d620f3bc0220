import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import { useCanEdit } from '~/utils/use-dashboard-user';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useRouteError,
} from '@remix-run/react';
import { StatusBadge } from '~/components/parcels/status-badge';
import { EventTimeline } from '~/components/tracking/event-timeline';
import { listSentEmailsForParcel } from '~/models/notification.server';
import { countParcelSubscribers } from '~/models/parcel-subscription.server';
import { getParcelTracking } from '~/models/tracking-event.server';
import { requireUser } from '~/http/auth.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const parcel = await getParcelTracking(params.parcelId ?? '');
  if (!parcel) throw json({ message: 'Parcel not found' }, { status: 404 });
  const [emails, subscribers] = await Promise.all([
    listSentEmailsForParcel(parcel.id),
    countParcelSubscribers(parcel.id),
  ]);
  return json({ parcel, emails, subscribers });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.parcel.trackingNumber ?? 'Tracking'} · Tracking · Management dashboard` },
];

export default function ParcelTrackingPage() {
  const canEdit = useCanEdit();
  const { parcel, emails, subscribers } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const basePath = `/dashboard/tracking/${parcel.id}`;

  return (
    <>
      <section aria-labelledby="selected-parcel-heading" className="card p-5">
        <div className="mb-5 flex flex-wrap items-start justify-between gap-3 border-b border-gray-100 pb-4">
          <div>
            <p className="text-sm text-gray-600">Tracking number</p>
            <h2 id="selected-parcel-heading" className="font-mono text-xl font-bold text-gray-900">
              {parcel.trackingNumber}
            </h2>
            <p className="mt-1 text-sm text-gray-600">
              {parcel.senderName || '—'} → {parcel.recipientName || '—'}
            </p>
            <p className="mt-1 text-sm text-gray-600">
              E-mail subscribers: {subscribers.confirmed}
              {subscribers.pending ? ` (${subscribers.pending} awaiting confirmation)` : ''}
            </p>
          </div>
          <div className="flex flex-col items-end gap-3">
            <p className="flex items-center gap-2 text-sm text-gray-600">
              Current status <StatusBadge status={parcel.status} />
            </p>
            {canEdit ? (
              <Link
                to={`${basePath}/events/new${search}${DIALOG_FRAGMENT}`}
                preventScrollReset
                className="btn-primary"
              >
                Add Event
              </Link>
            ) : null}
          </div>
        </div>
        <h3 className="sr-only">Tracking events</h3>
        <EventTimeline
          events={parcel.events}
          emails={emails}
          basePath={basePath}
          linkSearch={search}
        />
      </section>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section role="alert" className="card p-6 text-center">
        <h2 className="text-lg font-semibold text-gray-900">Parcel not found</h2>
        <p className="mt-1 text-sm text-gray-600">
          It may have been deleted. Choose another parcel from the list.
        </p>
      </section>
    );
  }
  return (
    <section role="alert" className="card p-6 text-center">
      <h2 className="text-lg font-semibold text-red-700">Failed to load tracking events</h2>
      <p className="mt-1 text-sm text-red-600">Please try again later.</p>
      <Link to={location.pathname + location.search} className="btn-secondary mt-4">
        Retry
      </Link>
    </section>
  );
}
