import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { EventFormDialog } from '~/components/tracking/event-form';
import { toFormDateTime, toFormStatus } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/http/auth.server';
import {
  depotChoices,
  eventDialogAction,
  eventFormWithDepots,
  requireParcelEvent,
} from '~/http/tracking-event-pages.server';
import { updateEvent } from '~/services/tracking-events.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const event = await requireParcelEvent(params);
  return json({ event, depots: await depotChoices() });
}

export function action(args: ActionFunctionArgs) {
  return eventDialogAction(args, 'update', eventFormWithDepots, (value, parcelId, actor) =>
    updateEvent(args.params.eventId ?? '', value, { parcelId }, actor),
  );
}

export const meta: MetaFunction = () => [{ title: 'Edit Event · Tracking · Management dashboard' }];

export default function EditEventDialog() {
  const { event, depots } = useLoaderData<typeof loader>();
  return (
    <EventFormDialog
      title="Edit Event"
      formKey={event.id}
      defaultValues={{
        ...toFormStatus(event),
        // A depot since removed: the event keeps its place, typed.
        depotId: depots.some((d) => d.id === event.depotId) ? (event.depotId ?? '') : '',
        location: event.location,
        description: event.description,
        reason: event.reason ?? '',
        nextAttemptDate: event.nextAttemptDate ?? '',
        ...(event.timestamp
          ? toFormDateTime(event.timestamp, event.timeZone)
          : { date: '', time: '' }),
        timeZone: event.timeZone,
      }}
      depots={depots}
      lastResult={useActionData<typeof action>()}
      submitLabel="Update Event"
      busyLabel="Updating..."
    />
  );
}
