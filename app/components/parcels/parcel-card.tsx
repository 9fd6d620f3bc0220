import type { SerializedParcel } from '~/models/parcel.server';
import { CARD_DESTINATION_LIMIT } from '~/schemas/constants';
import { formatDate } from '~/utils/format';
import { ParcelActionsMenu } from './parcel-actions-menu';
import { PriorityBadge, StatusBadge } from './status-badge';

type CardParcel = Omit<SerializedParcel, 'events'>;

function Contact({ title, contact }: { title: string; contact: CardParcel['sender'] }) {
  return (
    <div>
      <h4 className="text-xs font-semibold uppercase tracking-wide text-gray-500">{title}</h4>
      <p className="font-medium text-gray-900">{contact.name || '—'}</p>
      {contact.email ? <p className="break-all text-gray-600">{contact.email}</p> : null}
      {contact.phone ? <p className="text-gray-600">{contact.phone}</p> : null}
      {contact.address ? <p className="text-gray-600">{contact.address}</p> : null}
    </div>
  );
}

export function destinationLine(d: CardParcel['destinations'][number]): string {
  return [d.address, d.city, d.postalCode, d.country].filter(Boolean).join(', ');
}

/**
 * A parcel in the management list. Its menu is a <details> disclosure with real links, so View
 * Details, Edit and Delete work without JavaScript too.
 */
export function ParcelCard({
  parcel,
  search,
  canEdit = true,
}: {
  parcel: CardParcel;
  search: string;
  canEdit?: boolean;
}) {
  const shown = parcel.destinations.slice(0, CARD_DESTINATION_LIMIT);
  const more = parcel.destinations.length - shown.length;
  return (
    <article
      className="card p-4"
      aria-labelledby={`parcel-${parcel.id}-title`}
      data-parcel-id={parcel.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3
            id={`parcel-${parcel.id}-title`}
            className="font-mono text-lg font-semibold text-gray-900"
          >
            {parcel.trackingNumber}
          </h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-gray-700">
            <dt className="font-medium">From:</dt>
            <dd>{parcel.sender.name || '—'}</dd>
            <dt className="font-medium">To:</dt>
            <dd>{parcel.recipient.name || '—'}</dd>
            <dt className="font-medium">Service:</dt>
            <dd>{parcel.serviceType}</dd>
            <dt className="font-medium">Weight:</dt>
            <dd>{`${parcel.weight} kg`}</dd>
          </dl>
        </div>
        <div className="flex items-center gap-2">
          <StatusBadge status={parcel.status} />
          <PriorityBadge priority={parcel.priority} />
          <ParcelActionsMenu parcel={parcel} search={search} canEdit={canEdit} />
        </div>
      </div>

      <div className="mt-4 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Contact title="Sender" contact={parcel.sender} />
        <Contact title="Recipient" contact={parcel.recipient} />
        <div>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-gray-500">
            Package Details
          </h4>
          <p className="text-gray-700">{`Weight: ${parcel.weight} kg`}</p>
          <p className="text-gray-700">
            {`Dimensions: ${parcel.dimensions.length} × ${parcel.dimensions.width} × ${parcel.dimensions.height} cm`}
          </p>
          <p className="text-gray-700">{`Priority: ${parcel.priority}`}</p>
          <p className="text-gray-700">{`Estimated Delivery: ${formatDate(parcel.estimatedDelivery)}`}</p>
        </div>
      </div>

      {shown.length ? (
        <div className="mt-4 text-sm">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-gray-500">
            Destinations
          </h4>
          <ol className="mt-1 space-y-1">
            {shown.map((d, i) => {
              const line = destinationLine(d);
              return (
                <li key={d.id ?? i} className="flex gap-2">
                  <span className="inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white">
                    {i + 1}
                  </span>
                  <span>
                    <span className="font-medium">{d.name || '—'}</span>
                    {line ? <span className="text-gray-600">{` — ${line}`}</span> : null}
                  </span>
                </li>
              );
            })}
          </ol>
          {more > 0 ? <p className="mt-1 text-gray-600">{`+${more} more destinations`}</p> : null}
        </div>
      ) : null}
    </article>
  );
}
