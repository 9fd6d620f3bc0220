import { PhoneTextWarning } from '~/components/parcels/phone-text-warning';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { useCanDeliver, useCanEdit } from '~/utils/use-dashboard-user';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { destinationLine } from '~/components/parcels/parcel-card';
import { PriorityBadge, StatusBadge } from '~/components/parcels/status-badge';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getAccount } from '~/models/account.server';
import { getParcel } from '~/models/parcel-reads.server';
import { listProofs } from '~/models/proof-of-delivery.server';
import { ProofOfDeliveryList } from '~/components/parcels/proof-of-delivery-list';
import { FINAL_STATUSES, formatMoney, type ParcelStatus } from '~/schemas/constants';
import { labelHref } from '~/schemas/label';
import { requireUser } from '~/http/auth.server';
import { formatDate, formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';
import { addressLines } from '~/services/address-format.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const parcel = await getParcel(params.parcelId ?? '');
  if (!parcel) throw json({ message: 'Parcel not found' }, { status: 404 });
  const { events, ...rest } = parcel;
  // Every address in full, in its country's order (the label's formatter).
  const addresses = {
    sender: addressLines(parcel.sender),
    recipient: addressLines(parcel.recipient),
    destinations: parcel.destinations.map(addressLines),
  };
  const account = parcel.accountId ? await getAccount(parcel.accountId) : null;
  return json({
    parcel: { ...rest, eventCount: events?.length ?? 0 },
    addresses,
    proofs: await listProofs(parcel.id),
    account: account ? { id: account.id, name: account.name } : null,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-gray-500">{label}</dt>
      <dd className="text-gray-900">{children}</dd>
    </div>
  );
}

function ContactDetails({
  title,
  contact,
  lines,
}: {
  title: string;
  contact: {
    name: string;
    email: string;
    phone: string;
    address: string;
    phoneProblem?: string | null;
  };
  lines: string[];
}) {
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="font-semibold text-gray-900">{title}</h3>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <Item label="Name">{contact.name || '—'}</Item>
        <Item label="Email">{contact.email || '—'}</Item>
        <Item label="Phone">
          {contact.phone || '—'}
          <PhoneTextWarning phone={contact.phone} problem={contact.phoneProblem} />
        </Item>
        <Item label="Address">{lines.join(', ') || '—'}</Item>
      </dl>
    </section>
  );
}

export default function ParcelDetailsDialog() {
  const { timeZone } = useCompany();
  const canEdit = useCanEdit();
  const canDeliver = useCanDeliver();
  const { parcel, proofs, addresses, account } = useLoaderData<typeof loader>();
  const stops = parcel.destinations.length
    ? parcel.destinations
    : [{ name: parcel.recipient.name, address: parcel.recipient.address }];
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels${search}`;
  // The dialogs that change the parcel: Reopen only once its journey is over.
  const changes = [
    ...(FINAL_STATUSES.includes(parcel.status as ParcelStatus)
      ? [{ path: 'reopen', label: 'Reopen' }]
      : []),
    { path: 'edit', label: 'Edit' },
  ];
  return (
    <RouteDialog title={`Parcel Details: ${parcel.trackingNumber}`} closeTo={closeTo} size="xl">
      <div className="space-y-6 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={parcel.status} />
          <PriorityBadge priority={parcel.priority} />
        </div>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Item label="Tracking Number">
            <span className="font-mono">{parcel.trackingNumber}</span>
          </Item>
          <Item label="Status">{parcel.status}</Item>
          <Item label="Priority">{parcel.priority}</Item>
          <Item label="Service Type">{parcel.serviceType}</Item>
          <Item label="Cost">{formatMoney(parcel.cost)}</Item>
          <Item label="Created">{formatDateTime(parcel.createdAt, timeZone)}</Item>
          <Item label="Estimated Delivery">{formatDate(parcel.estimatedDelivery)}</Item>
          {parcel.actualDelivery ? (
            <Item label="Delivered">{formatDateTime(parcel.actualDelivery, timeZone)}</Item>
          ) : null}
          <Item label="Tracking Events">{parcel.eventCount}</Item>
          <Item label="Account">
            {account ? (
              <Link to="/dashboard/settings/accounts" className="text-brand-700 underline">
                {account.name}
              </Link>
            ) : (
              "None — the company's own"
            )}
            {parcel.livemode === false ? ' (test)' : null}
          </Item>
        </dl>
        {parcel.deliveryPreferences ? (
          <section aria-labelledby="preferences-heading" className="mt-4">
            <h3 id="preferences-heading" className="text-sm font-semibold text-gray-900">
              The recipient's delivery preferences
            </h3>
            <ul className="mt-1 list-disc pl-5 text-sm text-gray-800">
              {describeDeliveryPreferences(parcel.deliveryPreferences).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="mt-1 text-xs text-gray-600">
              Set {formatDateTime(parcel.deliveryPreferences.updatedAt, timeZone)}
            </p>
          </section>
        ) : null}
        <ContactDetails title="Sender" contact={parcel.sender} lines={addresses.sender} />
        <ContactDetails title="Recipient" contact={parcel.recipient} lines={addresses.recipient} />
        <section aria-label="Package" className="space-y-2">
          <h3 className="font-semibold text-gray-900">Package Details</h3>
          <dl className="grid gap-2 sm:grid-cols-2">
            <Item label="Weight">{parcel.weight} kg</Item>
            <Item label="Dimensions">
              {parcel.dimensions.length} × {parcel.dimensions.width} × {parcel.dimensions.height} cm
            </Item>
          </dl>
        </section>
        <section aria-label="Destinations" className="space-y-2">
          <h3 className="font-semibold text-gray-900">
            Destinations ({parcel.destinations.length})
          </h3>
          {parcel.destinations.length ? (
            <ol className="space-y-2">
              {parcel.destinations.map((d, i) => (
                <li key={d.id ?? i} className="rounded-md border border-gray-200 p-3">
                  <p className="font-medium">
                    {i + 1}. {d.name || '—'}
                  </p>
                  <p className="text-gray-600">
                    {addresses.destinations[i]?.join(', ') || destinationLine(d) || '—'}
                  </p>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-gray-600">No destinations.</p>
          )}
        </section>
        <ProofOfDeliveryList
          parcelId={parcel.id}
          stops={stops}
          proofs={proofs}
          canRecord={canDeliver}
          search={search}
          timeZone={timeZone}
        />
        <nav aria-label="This parcel elsewhere" className="flex flex-wrap gap-3 text-sm">
          <Link to={`/dashboard/tracking/${parcel.id}`} className="btn-secondary">
            Tracking events
          </Link>
          <Link
            to={`/dashboard/parcels/${parcel.id}/history${search}${DIALOG_FRAGMENT}`}
            className="btn-secondary"
          >
            History
          </Link>
          <a
            href={labelHref(parcel.id)}
            target="_blank"
            rel="noopener"
            type="application/pdf"
            className="btn-secondary"
          >
            Shipping label (PDF)
            <span className="sr-only">, opens in a new tab</span>
          </a>
          {canEdit ? (
            <>
              <Link
                to={`/dashboard/notifications/new?${new URLSearchParams({ parcelId: parcel.id })}${DIALOG_FRAGMENT}`}
                className="btn-secondary"
              >
                Send notification
              </Link>
              <Link
                to={`/dashboard/receipts/new?${new URLSearchParams({ parcelId: parcel.id })}${DIALOG_FRAGMENT}`}
                className="btn-secondary"
              >
                Generate receipt
              </Link>
            </>
          ) : null}
        </nav>
        <div className="flex flex-wrap justify-end gap-3">
          {canEdit
            ? changes.map(({ path, label }) => (
                <Link
                  key={path}
                  to={`/dashboard/parcels/${parcel.id}/${path}${search}${DIALOG_FRAGMENT}`}
                  className="btn-secondary"
                  preventScrollReset
                >
                  {label}
                </Link>
              ))
            : null}
          <Link to={closeTo} className="btn-primary" preventScrollReset>
            Done
          </Link>
        </div>
      </div>
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
