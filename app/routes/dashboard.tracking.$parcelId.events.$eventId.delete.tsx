import { useForm } from '@conform-to/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useParams } from '@remix-run/react';
import { DeleteDialog } from '~/components/ui/delete-dialog';
import { useCloseTo } from '~/components/ui/route-dialog';
import { TrackingEventDeleteSchema } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/http/auth.server';
import { eventDialogAction, requireParcelEvent } from '~/http/tracking-event-pages.server';
import { deleteEvent } from '~/services/tracking-events.server';
import { formatEventTime } from '~/utils/format';
import { eventStatusLabel } from '~/schemas/constants';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const event = await requireParcelEvent(params);
  return json({ event });
}

export function action(args: ActionFunctionArgs) {
  return eventDialogAction(
    args,
    'delete',
    () => TrackingEventDeleteSchema,
    (_value, parcelId, actor) => deleteEvent(args.params.eventId ?? '', { parcelId }, actor),
  );
}

export const meta: MetaFunction = () => [
  { title: 'Delete Event · Tracking · Management dashboard' },
];

export default function DeleteEventDialog() {
  const { event } = useLoaderData<typeof loader>();
  const [form] = useForm({ lastResult: useActionData<typeof action>() });
  const closeTo = useCloseTo(`/dashboard/tracking/${useParams().parcelId}`);
  return (
    <DeleteDialog title="Delete Event" closeTo={closeTo} form={form}>
      <p className="text-gray-700">
        Are you sure you want to delete the tracking event{' '}
        <strong>{eventStatusLabel(event)}</strong>
        {event.location ? <> at {event.location}</> : null} (
        <time dateTime={event.timestamp ?? undefined} suppressHydrationWarning>
          {formatEventTime(event.timestamp, event.timeZone)}
        </time>
        )? This cannot be undone.
      </p>
    </DeleteDialog>
  );
}
