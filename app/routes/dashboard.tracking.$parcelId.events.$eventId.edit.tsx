import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useParams } from '@remix-run/react';
import { EventForm } from '~/components/tracking/event-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getEvent, updateEvent } from '~/models/tracking-event.server';
import { parseEventForm, toFormDateTime, toFormStatus } from '~/schemas/tracking-event';
import { requireUser } from '~/services/auth.server';
import { createToastHeaders, redirectWithToast } from '~/services/flash.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const event = await getEvent(params.eventId ?? '');
  if (!event || event.parcelId !== params.parcelId)
    throw json({ message: 'Tracking event not found' }, { status: 404 });
  return json({ event });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const parcelId = params.parcelId ?? '';
  const submission = parseEventForm(await request.formData());
  if (!submission.success) {
    const { fieldErrors, formErrors, values } = submission;
    return json({ fieldErrors, formErrors, values }, { status: 400 });
  }
  let event;
  try {
    event = await updateEvent(params.eventId ?? '', submission.data, { parcelId });
  } catch (error) {
    console.error('Could not update a tracking event:', error);
    return json(
      { fieldErrors: {}, formErrors: ['Failed to update tracking event. Please try again later.'] },
      {
        status: 503,
        headers: await createToastHeaders(request, {
          type: 'error',
          title: 'Failed to update tracking event',
          description: 'Please try again later.',
        }),
      },
    );
  }
  const parcelPage = `/dashboard/tracking/${parcelId}${new URL(request.url).search}`;
  if (!event) {
    return redirectWithToast(request, parcelPage, {
      type: 'error',
      title: 'Failed to update tracking event',
      description: 'The tracking event no longer exists.',
    });
  }
  return redirectWithToast(request, parcelPage, {
    type: 'success',
    title: 'Tracking event updated',
  });
}

export const meta: MetaFunction = () => [{ title: 'Edit Event · Tracking · Management dashboard' }];

export default function EditEventDialog() {
  const { event } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { parcelId } = useParams();
  const { search } = useLocation();
  const closeTo = `/dashboard/tracking/${parcelId}${search}`;
  return (
    <RouteDialog title="Edit Event" closeTo={closeTo}>
      <EventForm
        key={event.id}
        defaultValues={{
          ...toFormStatus(event.status),
          location: event.location,
          description: event.description,
          ...(event.timestamp ? toFormDateTime(event.timestamp) : { date: '', time: '' }),
        }}
        errors={actionData}
        submitLabel="Update Event"
        busyLabel="Updating..."
        cancelTo={closeTo}
      />
    </RouteDialog>
  );
}
