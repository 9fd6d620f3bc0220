import { DIALOG_FRAGMENT } from '~/components/ui/route-dialog';
import { useCanEdit } from '~/utils/use-dashboard-user';
import { Link } from '@remix-run/react';
import type { TrackingEvent } from '~/models/tracking-event.server';
import { formatEventTime } from '~/utils/format';

type TimelineEvent = Pick<
  TrackingEvent,
  'id' | 'status' | 'location' | 'description' | 'timestamp' | 'timeZone'
>;

/** A parcel's tracking events, newest first, each with Edit and Delete links. */
export function EventTimeline({
  events,
  basePath,
  linkSearch = '',
}: {
  events: TimelineEvent[];
  /** The selected parcel's page, e.g. /dashboard/tracking/:parcelId */
  basePath: string;
  linkSearch?: string;
}) {
  const canEdit = useCanEdit();
  if (events.length === 0) {
    return (
      <p className="py-8 text-center text-gray-600">No tracking events found for this parcel.</p>
    );
  }
  return (
    <ol
      className="relative ml-3 border-l border-gray-200"
      aria-label="Tracking events, newest first"
    >
      {events.map((event, index) => (
        <li key={event.id} className="mb-6 ml-6 last:mb-0">
          <span
            aria-hidden="true"
            className={`absolute -left-2 mt-1.5 h-4 w-4 rounded-full border-2 border-white ${
              index === 0 ? 'bg-brand-600' : 'bg-gray-300'
            }`}
          />
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="font-semibold text-gray-900">{event.status}</h3>
              <p className="text-sm text-gray-600">
                {/* In the event's own zone; the browser's time-zone data may name it differently. */}
                <time dateTime={event.timestamp ?? undefined} suppressHydrationWarning>
                  {formatEventTime(event.timestamp, event.timeZone)}
                </time>
                {event.location ? <> · {event.location}</> : null}
              </p>
              {event.description ? (
                <p className="mt-1 break-words text-sm text-gray-700">{event.description}</p>
              ) : null}
            </div>
            <div className={canEdit ? 'flex shrink-0 gap-2' : 'hidden'}>
              <Link
                to={`${basePath}/events/${event.id}/edit${linkSearch}${DIALOG_FRAGMENT}`}
                preventScrollReset
                className="btn-secondary px-3 py-1"
              >
                Edit<span className="sr-only"> event {event.status}</span>
              </Link>
              <Link
                to={`${basePath}/events/${event.id}/delete${linkSearch}${DIALOG_FRAGMENT}`}
                preventScrollReset
                className="btn-secondary px-3 py-1 text-red-700"
              >
                Delete<span className="sr-only"> event {event.status}</span>
              </Link>
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}
