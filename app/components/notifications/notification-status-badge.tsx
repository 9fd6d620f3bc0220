import type { NotificationStatus } from '~/schemas/notification';

const COLORS: Record<NotificationStatus, string> = {
  sent: 'bg-green-100 text-green-800 ring-green-300',
  pending: 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  failed: 'bg-red-100 text-red-800 ring-red-300',
};

export function NotificationStatusBadge({ status }: { status: NotificationStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ring-1 ring-inset ${COLORS[status] ?? 'bg-gray-100 text-gray-800 ring-gray-300'}`}
      data-status={status}
    >
      {status}
    </span>
  );
}
