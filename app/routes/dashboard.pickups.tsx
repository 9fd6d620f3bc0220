import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { requireUserWithRole } from '~/http/auth.server';
import { listAccountNames } from '~/models/account.server';
import { listDepots } from '~/models/depot.server';
import { PickupListQuerySchema } from '~/schemas/pickup';
import { companyToday } from '~/services/runs.server';
import { listPickups } from '~/services/pickups.server';
import { DayAndDepotForm } from '~/components/runs/day-and-depot-form';

/**
 * Pickups: one day's (today unless chosen), at one depot or all, in window order, with the
 * address, the parcels expected and how many are in. Printed as it is shown (the filters are
 * left off the paper).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const url = new URL(request.url);
  const parsed = PickupListQuerySchema.safeParse({
    date: url.searchParams.get('date') || undefined,
    depotId: url.searchParams.get('depot') || undefined,
  });
  const query = parsed.success ? parsed.data : {};
  const date = query.date ?? companyToday();
  const [pickups, depots, accounts] = await Promise.all([
    listPickups(null, { ...query, date }),
    listDepots(),
    listAccountNames(),
  ]);
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  return json({
    date,
    depotId: query.depotId ?? '',
    depots: depots.map(({ id, name }) => ({ id, name })),
    pickups: pickups
      .sort((a, b) => a.window.from.localeCompare(b.window.from))
      .map((p) => ({ ...p, accountName: p.accountId ? (names.get(p.accountId) ?? '') : '' })),
  });
}

export const meta: MetaFunction = () => [{ title: 'Pickups · Management dashboard' }];

export default function Pickups() {
  const { date, depotId, depots, pickups } = useLoaderData<typeof loader>();
  const depotName = depots.find((d) => d.id === depotId)?.name ?? 'All depots';
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">
        Pickups · {date} · {depotName}
      </h1>
      <DayAndDepotForm date={date} depotId={depotId} depots={depots} none="All depots" />
      <CardSection
        headingId="pickups-heading"
        title={`${pickups.length} ${pickups.length === 1 ? 'pickup' : 'pickups'}`}
        empty={pickups.length ? false : 'No pickups on this day.'}
      >
        <ol className="divide-y divide-gray-200 text-sm">
          {pickups.map((pickup) => (
            <li key={pickup.id} className="break-inside-avoid py-2">
              <span className="font-semibold">
                {pickup.window.from}–{pickup.window.until}
              </span>{' '}
              {pickup.accountName || 'Company'} ·{' '}
              <span className="capitalize">{pickup.status}</span> · {pickup.collectedCount} of{' '}
              {pickup.parcelCount} parcels in
              <span className="block text-gray-700">
                {[
                  pickup.address.address,
                  pickup.address.city,
                  pickup.address.postalCode,
                  pickup.address.country,
                ]
                  .filter(Boolean)
                  .join(', ')}
              </span>
              {pickup.notes ? <span className="block text-gray-600">{pickup.notes}</span> : null}
            </li>
          ))}
        </ol>
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
