import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import { AuditList } from '~/components/audit/audit-list';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { RouteDialog } from '~/components/ui/route-dialog';
import { listAudit } from '~/models/audit.server';
import { getParcel } from '~/models/parcel-reads.server';
import { requireUser } from '~/http/auth.server';

/** A parcel's History: every recorded change to it and its events, newest first (any role). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const parcel = await getParcel(params.parcelId ?? '');
  if (!parcel) throw json({ message: 'Parcel not found' }, { status: 404 });
  const { entries } = await listAudit({ parcelId: parcel.id, limit: 100 });
  return json({ parcel: { id: parcel.id, trackingNumber: parcel.trackingNumber }, entries });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `History of ${data?.parcel.trackingNumber ?? 'Parcel'} · Management dashboard` },
];

export default function ParcelHistoryDialog() {
  const { parcel, entries } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels${search}`;
  return (
    <RouteDialog title={`History: ${parcel.trackingNumber}`} closeTo={closeTo} size="lg">
      <AuditList entries={entries} />
      <div className="mt-4 flex justify-end">
        <Link to={closeTo} className="btn-primary" preventScrollReset>
          Done
        </Link>
      </div>
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
