import type { Priority } from '~/schemas/constants';

const NEUTRAL = 'bg-gray-100 text-gray-800 ring-gray-300';

/** Badge colours from the spec; anything else (Returned, unknown values) is grey. */
export const STATUS_BADGE_COLORS: Record<string, string> = {
  Delivered: 'bg-green-100 text-green-800 ring-green-300',
  'In Transit': 'bg-blue-100 text-blue-800 ring-blue-300',
  'Out for Delivery': 'bg-purple-100 text-purple-800 ring-purple-300',
  Pending: 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  'Picked Up': 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  Failed: 'bg-red-100 text-red-800 ring-red-300',
  Returned: NEUTRAL,
};

export function statusBadgeColor(status: string | null | undefined): string {
  return (status && STATUS_BADGE_COLORS[status]) || NEUTRAL;
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusBadgeColor(status)}`}
      data-status={status ?? ''}
    >
      {status || 'Unknown'}
    </span>
  );
}

export const PRIORITY_BADGE_COLORS: Record<Priority, string> = {
  Low: 'bg-gray-100 text-gray-700 ring-gray-300',
  Standard: 'bg-sky-100 text-sky-800 ring-sky-300',
  High: 'bg-orange-100 text-orange-800 ring-orange-300',
  Express: 'bg-red-100 text-red-800 ring-red-300',
};

export function PriorityBadge({ priority }: { priority: string | null | undefined }) {
  const color = PRIORITY_BADGE_COLORS[priority as Priority] ?? NEUTRAL;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${color}`}
    >
      {priority || 'Standard'}
    </span>
  );
}
