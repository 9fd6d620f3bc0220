import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { CardSection, ListCard } from '~/components/ui/card-section';
import { StatusBadge } from '~/components/parcels/status-badge';
import { accountParcelSummary } from '~/models/parcel-reads.server';
import { listTestMessages } from '~/models/test-message.server';
import { PARCEL_STATUSES } from '~/schemas/constants';
import { requireShipper } from '~/http/auth.server';

/** The account's month: its parcels by status, its exceptions, and its test log. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const now = new Date();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [summary, testLog] = await Promise.all([
    accountParcelSummary(user.account, since),
    listTestMessages(user.account.accountId, 10),
  ]);
  return json({ ...summary, testLog });
}

export default function AccountOverview() {
  const { byStatus, exceptions, testLog } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Overview</h1>
      <CardSection headingId="month-heading" title="This month's parcels">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {PARCEL_STATUSES.map((status) => (
            <div key={status}>
              <dt className="text-sm text-gray-600">{status}</dt>
              <dd className="text-2xl font-semibold">{byStatus[status] ?? 0}</dd>
            </div>
          ))}
        </dl>
      </CardSection>
      <ListCard
        headingId="exceptions-heading"
        title="Exceptions"
        empty="No exceptions."
        items={exceptions}
        listClassName="space-y-1"
      >
        {(parcel) => (
          <>
            <Link to={`/account/parcels/${parcel.id}`} className="text-brand-700 underline">
              {parcel.trackingNumber}
            </Link>{' '}
            {parcel.recipient.name} <StatusBadge status={parcel.status} />
          </>
        )}
      </ListCard>
      <ListCard
        headingId="test-log-heading"
        title="Test log"
        empty="Messages your test parcels would send appear here."
        items={testLog}
        listClassName="space-y-1 text-sm"
      >
        {(message) => `${message.trackingNumber}: “${message.subject}” to ${message.to} (not sent)`}
      </ListCard>
    </div>
  );
}
