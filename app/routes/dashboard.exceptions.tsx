import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { failureReasonLabel } from '~/schemas/constants';
import { requireUserWithRole } from '~/services/auth.server';
import { deliveryExceptions } from '~/services/exceptions.server';
import { formatDate, formatEventTime } from '~/utils/format';

/** Deliveries that need someone: today's failed attempts, and parcels nobody has scanned lately. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return json(await deliveryExceptions());
}

export const meta: MetaFunction = () => [{ title: 'Exceptions · Management dashboard' }];

export default function Exceptions() {
  const { today, staleScanDays, failedToday, quiet } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Exceptions</h1>

      <section aria-labelledby="failed-heading" className="card p-4">
        <h2 id="failed-heading" className="text-lg font-semibold">
          Failed attempts today
        </h2>
        <p className="mb-3 text-sm text-gray-600">{formatDate(`${today}T12:00:00Z`)}</p>
        {failedToday.length === 0 ? (
          <p className="text-sm text-gray-600">No failed delivery attempts today.</p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {failedToday.map(({ parcel, event }) => (
              <li key={event.id} className="py-2 text-sm">
                <Link
                  to={`/dashboard/tracking/${parcel.id}`}
                  className="font-mono font-semibold text-brand-700 hover:underline"
                >
                  {parcel.trackingNumber}
                </Link>{' '}
                <span className="text-gray-900">{parcel.recipientName}</span>
                <p className="text-gray-700">
                  {event.reason ? failureReasonLabel(event.reason) : 'No reason given'}
                  {event.description ? `: ${event.description}` : ''} ·{' '}
                  {formatEventTime(event.timestamp, event.timeZone)}
                  {event.location ? ` · ${event.location}` : ''}
                  {event.nextAttemptDate
                    ? ` · Next attempt ${formatDate(`${event.nextAttemptDate}T12:00:00Z`)}`
                    : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="quiet-heading" className="card p-4">
        <h2 id="quiet-heading" className="text-lg font-semibold">
          {`No scan for ${staleScanDays} ${staleScanDays === 1 ? 'day' : 'days'}`}
        </h2>
        <p className="mb-3 text-sm text-gray-600">
          Parcels not delivered or returned, the quietest first.
        </p>
        {quiet.length === 0 ? (
          <p className="text-sm text-gray-600">Every open parcel has been scanned recently.</p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {quiet.map(({ parcel, lastEvent, since }) => (
              <li key={parcel.id} className="py-2 text-sm">
                <Link
                  to={`/dashboard/tracking/${parcel.id}`}
                  className="font-mono font-semibold text-brand-700 hover:underline"
                >
                  {parcel.trackingNumber}
                </Link>{' '}
                <span className="text-gray-900">{parcel.recipientName}</span>{' '}
                <span className="text-gray-600">{parcel.status}</span>
                <p className="text-gray-700">
                  {lastEvent
                    ? `Last scan: ${lastEvent.status}${lastEvent.location ? ` at ${lastEvent.location}` : ''}, ${formatEventTime(lastEvent.timestamp, lastEvent.timeZone)}`
                    : `Never scanned; created ${formatDate(since)}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
