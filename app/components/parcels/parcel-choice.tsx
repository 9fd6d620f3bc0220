import { StatusBadge } from './status-badge';

/**
 * A parcel among those to choose from (the picker's options, the Tracking tab's list): its
 * number and status, then who sends it to whom.
 */
export function ParcelChoice({
  parcel,
  numberClassName,
  partiesClassName,
}: {
  parcel: { trackingNumber: string; status: string; senderName: string; recipientName: string };
  numberClassName: string;
  partiesClassName: string;
}) {
  return (
    <>
      <span className="flex items-center justify-between gap-2">
        <span className={numberClassName}>{parcel.trackingNumber}</span>
        <StatusBadge status={parcel.status} />
      </span>
      <span className={`mt-0.5 block truncate text-xs ${partiesClassName}`}>
        {parcel.senderName || '—'} → {parcel.recipientName || '—'}
      </span>
    </>
  );
}
