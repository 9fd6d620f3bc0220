import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { failureReasonLabel } from '~/schemas/constants';
import { requireUserWithRole } from '~/http/auth.server';
import { deliveryExceptions } from '~/services/exceptions.server';
import { formatDate, formatEventTime } from '~/utils/format';

/** Deliveries that need someone: today's failed attempts, and parcels nobody has scanned lately. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return json(await deliveryExceptions());
}

export const meta: MetaFunction = () => [{ title: 'Exceptions · Management dashboard' }];

type ListedParcel = { id: string; trackingNumber: string; recipientName: string; status: string };

/** Parcels that need someone, each by its tracking number and recipient, with what happened. */
function ParcelList<Item extends { parcel: ListedParcel }>({
  items,
  itemKey,
  status = false,
  detail,
}: {
  items: Item[];
  itemKey: (item: Item) => string;
  status?: boolean;
  detail: (item: Item) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-gray-100">
      {items.map((item) => {
        const { parcel } = item;
        return (
          <li key={itemKey(item)} className="py-2 text-sm">
            <Link
              to={`/dashboard/tracking/${parcel.id}`}
              className="font-mono font-semibold text-brand-700 hover:underline"
            >
              {parcel.trackingNumber}
            </Link>{' '}
            <span className="text-gray-900">{parcel.recipientName}</span>
            {status ? (
              <>
                {' '}
                <span className="text-gray-600">{parcel.status}</span>
              </>
            ) : null}
            <p className="text-gray-700">{detail(item)}</p>
          </li>
        );
      })}
    </ul>
  );
}

export default function Exceptions() {
  const { today, staleScanDays, failedToday, quiet } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Exceptions</h1>

      <CardSection
        headingId="failed-heading"
        title="Failed attempts today"
        description={formatDate(`${today}T12:00:00Z`)}
        empty={failedToday.length === 0 && 'No failed delivery attempts today.'}
      >
        <ParcelList
          items={failedToday}
          itemKey={({ event }) => event.id}
          detail={({ event }) => (
            <>
              {event.reason ? failureReasonLabel(event.reason) : 'No reason given'}
              {event.description ? `: ${event.description}` : ''} ·{' '}
              {formatEventTime(event.timestamp, event.timeZone)}
              {event.location ? ` · ${event.location}` : ''}
              {event.nextAttemptDate
                ? ` · Next attempt ${formatDate(`${event.nextAttemptDate}T12:00:00Z`)}`
                : ''}
            </>
          )}
        />
      </CardSection>

      <CardSection
        headingId="quiet-heading"
        title={`No scan for ${staleScanDays} ${staleScanDays === 1 ? 'day' : 'days'}`}
        description="Parcels not delivered or returned, the quietest first."
        empty={quiet.length === 0 && 'Every open parcel has been scanned recently.'}
      >
        <ParcelList
          items={quiet}
          itemKey={({ parcel }) => parcel.id}
          status
          detail={({ lastEvent, since }) =>
            lastEvent
              ? `Last scan: ${lastEvent.status}${lastEvent.location ? ` at ${lastEvent.location}` : ''}, ${formatEventTime(lastEvent.timestamp, lastEvent.timeZone)}`
              : `Never scanned; created ${formatDate(since)}`
          }
        />
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
