import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useParams } from '@remix-run/react';
import { EventForm } from '~/components/tracking/event-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { eventFormSchema, toFormDateTime, toFormStatus } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/services/auth.server';
import { redirectWithOutcome } from '~/lib/flash.server';
import {
  depotChoices,
  EVENT_GONE,
  eventSaveFailed,
  requireParcelEvent,
  trackingParcelPage,
} from '~/services/tracking-event-pages.server';
import { updateEvent } from '~/services/tracking-events.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const event = await requireParcelEvent(params);
  return json({ event, depots: await depotChoices() });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const parcelId = params.parcelId ?? '';
  const submission = parseWithZod(await readFormData(request), {
    schema: eventFormSchema(await depotChoices()),
  });
  if (submission.status !== 'success') return invalidForm(submission);
  let event;
  try {
    event = await updateEvent(
      params.eventId ?? '',
      submission.value,
      { parcelId },
      { user, context },
    );
  } catch (error) {
    return eventSaveFailed(request, 'update', submission, error);
  }
  const parcelPage = trackingParcelPage(request, parcelId);
  return redirectWithOutcome(request, parcelPage, event, {
    gone: { title: 'Failed to update tracking event', description: EVENT_GONE },
    done: { title: 'Tracking event updated' },
  });
}

export const meta: MetaFunction = () => [{ title: 'Edit Event · Tracking · Management dashboard' }];

export default function EditEventDialog() {
  const { event, depots } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { parcelId } = useParams();
  const { search } = useLocation();
  const closeTo = `/dashboard/tracking/${parcelId}${search}`;
  return (
    <RouteDialog title="Edit Event" closeTo={closeTo}>
      <EventForm
        key={event.id}
        defaultValues={{
          ...toFormStatus(event.status),
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
        lastResult={lastResult}
        submitLabel="Update Event"
        busyLabel="Updating..."
        cancelTo={closeTo}
      />
    </RouteDialog>
  );
}
