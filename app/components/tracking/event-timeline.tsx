import { Link } from '@remix-run/react';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import { useCanEdit } from '~/utils/use-dashboard-user';
import type { TrackingEvent } from '~/models/tracking-event.server';
import { formatDateTime, formatEventTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';
import { eventStatusLabel } from '~/schemas/constants';

type TimelineEvent = Pick<
  TrackingEvent,
  'id' | 'status' | 'location' | 'description' | 'timestamp' | 'timeZone' | 'override'
>;

export type TimelineEmail = {
  id: string;
  recipient: string;
  title: string;
  automatic: boolean;
  sentAt: string | null;
};

type Entry =
  | { kind: 'event'; at: number; event: TimelineEvent }
  | { kind: 'email'; at: number; email: TimelineEmail };

/**
 * A parcel's tracking events, newest first, each with Edit and Delete links; the e-mails sent
 * about it ("E-mail sent to …") in between, where they happened.
 */
export function EventTimeline({
  events,
  emails = [],
  basePath,
  linkSearch = '',
}: {
  events: TimelineEvent[];
  emails?: TimelineEmail[];
  /** The selected parcel's page, e.g. /dashboard/tracking/:parcelId */
  basePath: string;
  linkSearch?: string;
}) {
  const { timeZone } = useCompany();
  const newestEventId = events[0]?.id;
  const entries: Entry[] = [
    ...events.map((event) => ({
      kind: 'event' as const,
      at: new Date(event.timestamp ?? 0).getTime(),
      event,
    })),
    ...emails.map((email) => ({
      kind: 'email' as const,
      at: new Date(email.sentAt ?? 0).getTime(),
      email,
    })),
  ].sort((a, b) => b.at - a.at);
  const empty =
    events.length === 0 ? (
      <p className="py-8 text-center text-gray-600">No tracking events found for this parcel.</p>
    ) : null;
  if (entries.length === 0) return empty;
  return (
    <>
      {empty}
      <ol
        className="relative ml-3 border-l border-gray-200"
        aria-label="Tracking events, newest first"
      >
        {entries.map((entry) =>
          entry.kind === 'email' ? (
            <li key={`email-${entry.email.id}`} className="mb-6 ml-6 last:mb-0">
              <span
                aria-hidden="true"
                className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border-2 border-white bg-green-500"
              />
              <p className="text-sm font-medium text-gray-800">
                E-mail sent to <span className="break-all">{entry.email.recipient}</span>
              </p>
              <p className="text-xs text-gray-600">
                <time dateTime={entry.email.sentAt ?? undefined}>
                  {formatDateTime(entry.email.sentAt, timeZone)}
                </time>
                {' · '}
                {entry.email.automatic ? 'Automatic' : 'Sent by staff'}: {entry.email.title}
              </p>
            </li>
          ) : (
            <EventItem
              key={entry.event.id}
              event={entry.event}
              newest={entry.event.id === newestEventId}
              basePath={basePath}
              linkSearch={linkSearch}
            />
          ),
        )}
      </ol>
    </>
  );
}

/** What staff may do to one event, each opened as a dialog over the timeline. */
const EVENT_ACTIONS = [
  { path: 'edit', label: 'Edit', className: 'btn-secondary px-3 py-1' },
  { path: 'delete', label: 'Delete', className: 'btn-secondary px-3 py-1 text-red-700' },
];

function EventItem({
  event,
  newest,
  basePath,
  linkSearch,
}: {
  event: TimelineEvent;
  newest: boolean;
  basePath: string;
  linkSearch: string;
}) {
  const canEdit = useCanEdit();
  return (
    <li className="mb-6 ml-6 last:mb-0">
      <span
        aria-hidden="true"
        className={`absolute -left-2 mt-1.5 h-4 w-4 rounded-full border-2 border-white ${
          newest ? 'bg-brand-600' : 'bg-gray-300'
        }`}
      />
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-gray-900">{eventStatusLabel(event)}</h3>
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
          {event.override?.length ? (
            <p className="mt-1 break-words text-sm text-amber-900">
              Sent out after the station warned: {event.override.join(' ')}
            </p>
          ) : null}
        </div>
        <div className={canEdit ? 'flex shrink-0 gap-2' : 'hidden'}>
          {EVENT_ACTIONS.map(({ path, label, className }) => (
            <Link
              key={path}
              to={`${basePath}/events/${event.id}/${path}${linkSearch}${DIALOG_FRAGMENT}`}
              preventScrollReset
              className={className}
            >
              {label}
              <span className="sr-only"> event {eventStatusLabel(event)}</span>
            </Link>
          ))}
        </div>
      </div>
    </li>
  );
}
