import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { StatCard } from '~/components/dashboard/stat-card';
import { getDashboardStats, listRecentTrackingEvents } from '~/models/dashboard.server';
import { formatMoney } from '~/schemas/constants';
import { OVERVIEW_ACTIVITY_LIMIT } from '~/schemas/dashboard';
import { requireUser } from '~/http/auth.server';
import { COURIER_HOME } from '~/components/dashboard/dashboard-tabs';
import { formatEventTime, formatRelativeTime } from '~/utils/format';
import { eventStatusLabel } from '~/schemas/constants';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // A courier's work is the scan station: they land there, and have no overview of revenue.
  if (user.role === 'courier') throw redirect(COURIER_HOME);
  const [stats, activity] = await Promise.all([
    getDashboardStats().catch((error: unknown) => {
      console.error('Could not load dashboard statistics:', error);
      return null;
    }),
    listRecentTrackingEvents({ limit: OVERVIEW_ACTIVITY_LIMIT }).catch((error: unknown) => {
      console.error('Could not load recent activity:', error);
      return null;
    }),
  ]);
  // Relative times are computed against the server's clock on both sides, so hydration agrees.
  return json({ stats, activity, now: new Date().toISOString() });
}

export const meta: MetaFunction = () => [{ title: 'Overview · Management dashboard' }];

/** The four figures of the overview: what each counts, how its change is described, its icon. */
const FIGURES = [
  {
    key: 'totalParcels',
    title: 'Total Parcels',
    compares: 'Parcels created',
    icon: 'M21 8l-9-5-9 5 9 5 9-5zM3 8v8l9 5 9-5V8M12 13v8',
  },
  {
    key: 'activeParcels',
    title: 'Active Parcels',
    compares: 'Created and still active',
    icon: 'M3 6h11v9H3zM14 9h4l3 3v3h-7zM7 18a2 2 0 1 0 0-.01M17 18a2 2 0 1 0 0-.01',
  },
  {
    key: 'deliveredParcels',
    title: 'Delivered Parcels',
    compares: 'Created and delivered',
    icon: 'M20 6L9 17l-5-5',
  },
  {
    key: 'totalRevenue',
    title: 'Total Revenue',
    compares: 'Cost of parcels created',
    icon: 'M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  },
] as const;

function FigureIcon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
      <path d={path} />
    </svg>
  );
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

/** The calendar months (UTC) the change figures compare: this one and the one before. */
function comparedMonths(now: string) {
  const today = new Date(now);
  const previous = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return { current: monthName.format(today), previous: monthName.format(previous) };
}

export default function DashboardOverview() {
  const { stats, activity, now } = useLoaderData<typeof loader>();
  const { current, previous } = comparedMonths(now);
  const compares = (
    what: string,
    change: { thisMonth: number; lastMonth: number },
    show: (value: number) => string = String,
  ) => `${what}: ${show(change.thisMonth)} in ${current}, ${show(change.lastMonth)} in ${previous}`;

  return (
    <div className="space-y-8">
      <h1 className="sr-only">Overview</h1>
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="sr-only">
          Statistics
        </h2>
        {stats ? (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {FIGURES.map((figure) => {
              const show = figure.key === 'totalRevenue' ? formatMoney : String;
              return (
                <StatCard
                  key={figure.key}
                  title={figure.title}
                  value={show(stats[figure.key])}
                  change={stats.changes[figure.key].label}
                  compares={compares(figure.compares, stats.changes[figure.key], show)}
                  icon={<FigureIcon path={figure.icon} />}
                />
              );
            })}
          </div>
        ) : (
          <p role="alert" className="text-red-600">
            Failed to load dashboard statistics
          </p>
        )}
      </section>

      <section aria-labelledby="activity-heading" className="card p-5">
        <h2 id="activity-heading" className="text-lg font-semibold text-gray-900">
          Recent Activity
        </h2>
        {activity === null ? (
          <div role="alert" className="mt-3 flex flex-wrap items-center gap-3">
            <p className="text-red-600">Failed to load data</p>
            <Link to="/dashboard" className="btn-secondary">
              Retry
            </Link>
          </div>
        ) : activity.length === 0 ? (
          <p className="mt-3 text-sm text-gray-600">No tracking activity yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-100">
            {activity.map((event) => (
              <li
                key={event.id}
                className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3"
              >
                <div className="min-w-0">
                  <p className="text-sm font-medium text-gray-900">
                    {eventStatusLabel(event)}
                    {' · '}
                    <Link
                      to={`/dashboard/parcels/${event.parcelId}`}
                      className="font-mono text-brand-700 hover:underline"
                    >
                      {event.trackingNumber}
                    </Link>
                  </p>
                  {event.location || event.description ? (
                    <p className="truncate text-sm text-gray-600">
                      {[event.location, event.description].filter(Boolean).join(' — ')}
                    </p>
                  ) : null}
                </div>
                {event.timestamp ? (
                  <time
                    dateTime={event.timestamp}
                    title={formatEventTime(event.timestamp, event.timeZone)}
                    suppressHydrationWarning
                    className="shrink-0 text-xs text-gray-500"
                  >
                    {formatRelativeTime(event.timestamp, new Date(now))}
                  </time>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
