import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ProofOfDeliveryList } from '~/components/parcels/proof-of-delivery-list';
import { StatusBadge } from '~/components/parcels/status-badge';
import { CardSection } from '~/components/ui/card-section';
import { getParcel, parcelInScope } from '~/models/parcel-reads.server';
import { listProofs } from '~/models/proof-of-delivery.server';
import { requireShipper } from '~/http/auth.server';
import { scopeFilter } from '~/lib/tenancy.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

/** One of the account's parcels: its timeline, window, proof of delivery and label. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const id = params.parcelId ?? '';
  // Another's parcel is not there, as an unknown one.
  const parcel = (await parcelInScope(id, scopeFilter(user.account))) ? await getParcel(id) : null;
  if (!parcel) throw json({ message: 'Parcel not found' }, { status: 404 });
  return json({ parcel, proofs: await listProofs(parcel.id) });
}

export default function AccountParcel() {
  const { parcel, proofs } = useLoaderData<typeof loader>();
  const { timeZone } = useCompany();
  const window = parcel.deliveryWindow;
  return (
    <div className="space-y-4">
      <p>
        <Link to="/account/parcels" className="text-brand-700 underline">
          Parcels
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-bold text-gray-900">{parcel.trackingNumber}</h1>
      <p>
        <StatusBadge status={parcel.status} /> {parcel.livemode ? null : <span>(test)</span>}
      </p>
      <p>
        To {parcel.recipient.name}, {parcel.recipient.address}
        {window?.from
          ? ` · expected ${formatDateTime(window.from, timeZone)} – ${formatDateTime(window.until, timeZone)}`
          : parcel.estimatedDelivery
            ? ` · expected ${formatDateTime(parcel.estimatedDelivery, timeZone)}`
            : null}
      </p>
      <p>
        <a href={`/api/parcels/${parcel.id}/label.pdf`} className="btn-secondary">
          Label (PDF)
        </a>
      </p>
      <CardSection headingId="timeline-heading" title="Timeline">
        <ol className="space-y-2">
          {(parcel.events ?? []).map((event) => (
            <li key={event.id}>
              <span className="font-medium">{event.status}</span>
              {event.location ? `, ${event.location}` : ''} ·{' '}
              {formatDateTime(event.timestamp, event.timeZone)}
            </li>
          ))}
        </ol>
      </CardSection>
      <div className="card p-4">
        <ProofOfDeliveryList
          parcelId={parcel.id}
          stops={
            parcel.destinations.length
              ? parcel.destinations
              : [{ name: parcel.recipient.name, address: parcel.recipient.address }]
          }
          proofs={proofs}
          canRecord={false}
          search=""
          timeZone={timeZone}
        />
      </div>
    </div>
  );
}
