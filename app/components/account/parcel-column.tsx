import { Link } from '@remix-run/react';
import type { Column } from '~/components/ui/data-table';

/** A portal table's first column: each parcel's tracking number, a link to its page. */
export function trackingNumberColumn<
  Row extends { id: string; trackingNumber: string },
>(): Column<Row> {
  return {
    header: 'Tracking number',
    rowHeader: true,
    cell: (parcel) => (
      <Link to={`/account/parcels/${parcel.id}`} className="font-mono text-brand-700 underline">
        {parcel.trackingNumber}
      </Link>
    ),
  };
}
