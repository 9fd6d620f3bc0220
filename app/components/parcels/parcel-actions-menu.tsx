import { DIALOG_FRAGMENT } from '~/components/ui/route-dialog';
import { labelHref } from '~/schemas/label';

/**
 * A parcel's row menu: View Details, its tracking events, its shipping label (a PDF, in a new tab), and Edit and Delete
 * for those who may change parcels. A `<details>` that works without JavaScript; each dialog link
 * opens its dialog, scrolled into view.
 */
export function ParcelActionsMenu({
  parcel,
  search,
  canEdit,
  className = 'relative',
}: {
  parcel: { id: string; trackingNumber: string };
  /** The list's query string, kept when a dialog closes. */
  search: string;
  canEdit: boolean;
  className?: string;
}) {
  const base = `/dashboard/parcels/${parcel.id}`;
  return (
    <details className={className}>
      <summary className="btn-secondary list-none px-2 py-1 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true">⋯</span>
        <span className="sr-only">{`Actions for ${parcel.trackingNumber}`}</span>
      </summary>
      <ul className="absolute right-0 z-10 mt-1 w-44 rounded-md border border-gray-200 bg-white py-1 text-sm shadow-lg">
        <li>
          <a
            href={`${base}${search}${DIALOG_FRAGMENT}`}
            data-client-link
            data-discover="true"
            className="block px-3 py-2 hover:bg-gray-50"
          >
            View Details
          </a>
        </li>
        <li>
          <a
            href={`/dashboard/tracking/${parcel.id}`}
            data-client-link
            data-discover="true"
            className="block px-3 py-2 hover:bg-gray-50"
          >
            Tracking events
          </a>
        </li>
        <li>
          <a
            href={labelHref(parcel.id)}
            target="_blank"
            rel="noopener"
            type="application/pdf"
            className="block px-3 py-2 hover:bg-gray-50"
          >
            Label (PDF)
            <span className="sr-only">{`, ${parcel.trackingNumber}, opens in a new tab`}</span>
          </a>
        </li>
        {canEdit ? (
          <>
            <li>
              <a
                href={`${base}/edit${search}${DIALOG_FRAGMENT}`}
                data-client-link
                data-discover="true"
                className="block px-3 py-2 hover:bg-gray-50"
              >
                Edit
              </a>
            </li>
            <li>
              <a
                href={`${base}/delete${search}${DIALOG_FRAGMENT}`}
                data-client-link
                data-discover="true"
                className="block px-3 py-2 text-red-700 hover:bg-red-50"
              >
                Delete
              </a>
            </li>
          </>
        ) : null}
      </ul>
    </details>
  );
}
