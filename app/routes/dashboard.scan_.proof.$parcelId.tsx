import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ProofOfDeliveryForm } from '~/components/parcels/proof-of-delivery-form';
import { proofFormAction, proofFormLoader } from '~/http/proof-of-delivery-pages.server';

/**
 * The proof of delivery at the door, from the scan station's answer: the stop chosen, Received by
 * ready for typing, thumb-sized controls, and back to the station with its settings once recorded.
 */
function stationUrl(search: string) {
  const params = new URLSearchParams(search);
  // From the courier's run, back to it.
  if (params.get('from') === 'my-run') return '/dashboard/my-run';
  params.delete('destination');
  return `/dashboard/scan${params.size ? `?${params}` : ''}`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return proofFormLoader(request, params.parcelId ?? '');
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return proofFormAction(request, {
    parcelId: params.parcelId ?? '',
    context,
    backTo: stationUrl(new URL(request.url).search),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Proof of delivery · ${data?.parcel.trackingNumber ?? 'Parcel'} · Scan · Management dashboard`,
  },
];

export default function StationProofOfDelivery() {
  const { parcel, destination, stops, stop, delivered } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const back = stationUrl(useLocation().search);
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Proof of delivery</h1>
      <section aria-labelledby="proof-stop" className="card space-y-4 p-4">
        <div id="proof-stop">
          <p className="font-mono text-lg font-semibold">{parcel.trackingNumber}</p>
          <p className="text-sm text-gray-700">
            {stops > 1 ? `Stop ${destination + 1} of ${stops}: ` : null}
            <strong>{stop.name || '—'}</strong>
            {stop.address ? `, ${stop.address}` : null}
          </p>
        </div>
        {delivered ? (
          <p role="status" className="text-sm text-gray-700">
            This stop already has a proof of delivery.{' '}
            <Link to={back} className="inline-flex min-h-6 items-center underline">
              Back to scanning
            </Link>
          </p>
        ) : (
          <ProofOfDeliveryForm
            destination={destination}
            lastResult={lastResult}
            closeTo={back}
            large
          />
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
