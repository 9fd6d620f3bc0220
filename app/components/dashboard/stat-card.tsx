import type { ReactNode } from 'react';

/**
 * One overview figure with its change against last month ('+12%', '-5%', 'New', '—') and, under
 * it, the two figures the change compares.
 */
export function StatCard({
  title,
  value,
  change,
  compares,
  icon,
}: {
  title: string;
  value: ReactNode;
  change: string;
  compares: string;
  icon?: ReactNode;
}) {
  const tone =
    change.startsWith('+') || change === 'New'
      ? 'text-green-700'
      : change.startsWith('-')
        ? 'text-red-700'
        : 'text-gray-600';
  return (
    <div className="card p-5">
      <div className="flex items-start justify-between gap-3">
        <dl>
          <dt className="text-sm font-medium text-gray-600">{title}</dt>
          <dd className="mt-1 text-2xl font-bold text-gray-900">{value}</dd>
        </dl>
        {icon ? (
          <span aria-hidden="true" className="rounded-md bg-brand-50 p-2 text-brand-700">
            {icon}
          </span>
        ) : null}
      </div>
      <p className="mt-3 text-sm">
        <span className={`font-semibold ${tone}`}>{change}</span>{' '}
        <span className="text-gray-500">from last month</span>
      </p>
      <p className="mt-1 text-xs text-gray-600">{compares}</p>
    </div>
  );
}
