import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ProofOfDeliveryForm } from '~/components/parcels/proof-of-delivery-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { proofFormAction, proofFormLoader } from '~/http/proof-of-delivery-pages.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  return proofFormLoader(request, params.parcelId ?? '');
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const parcelId = params.parcelId ?? '';
  const url = new URL(request.url);
  const backTo = `/dashboard/parcels/${parcelId}${url.search.replace(/([?&])destination=\d*&?/, '$1').replace(/[?&]$/, '')}`;
  return proofFormAction(request, { parcelId, context, backTo });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Proof of delivery · ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard`,
  },
];

export default function ProofOfDeliveryDialog() {
  const { parcel, destination, stops, stop, delivered } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  params.delete('destination');
  const back = params.size ? `?${params}` : '';
  const closeTo = `/dashboard/parcels/${parcel.id}${back}`;
  return (
    <RouteDialog
      title={`Record proof of delivery: ${parcel.trackingNumber}`}
      closeTo={closeTo}
      size="lg"
    >
      <p className="mb-4 text-sm text-gray-700">
        {stops > 1 ? `Stop ${destination + 1} of ${stops}: ` : null}
        <strong>{stop.name || '—'}</strong>
        {stop.address ? `, ${stop.address}` : null}
      </p>
      {delivered ? (
        <p role="status" className="text-sm text-gray-700">
          This stop already has a proof of delivery.{' '}
          <Link to={closeTo} className="underline">
            Back to the parcel
          </Link>
        </p>
      ) : (
        <ProofOfDeliveryForm destination={destination} lastResult={lastResult} closeTo={closeTo} />
      )}
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
