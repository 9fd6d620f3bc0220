import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import { labelHref } from '~/schemas/label';

/** An entry of the menu that the app opens in place: a dialog over the list, or another page. */
function PageLinkItem({
  href,
  className = 'block px-3 py-2 hover:bg-gray-50',
  children,
}: {
  href: string;
  className?: string;
  children: string;
}) {
  return (
    <li>
      <a href={href} data-client-link data-discover="true" className={className}>
        {children}
      </a>
    </li>
  );
}

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
        <PageLinkItem href={`${base}${search}${DIALOG_FRAGMENT}`}>View Details</PageLinkItem>
        <PageLinkItem href={`/dashboard/tracking/${parcel.id}`}>Tracking events</PageLinkItem>
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
            <PageLinkItem href={`${base}/edit${search}${DIALOG_FRAGMENT}`}>Edit</PageLinkItem>
            <PageLinkItem
              href={`${base}/delete${search}${DIALOG_FRAGMENT}`}
              className="block px-3 py-2 text-red-700 hover:bg-red-50"
            >
              Delete
            </PageLinkItem>
          </>
        ) : null}
      </ul>
    </details>
  );
}
