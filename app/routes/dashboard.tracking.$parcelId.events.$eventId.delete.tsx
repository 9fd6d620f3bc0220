import { useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useParams } from '@remix-run/react';
import { DeleteDialog } from '~/components/ui/delete-dialog';
import { TrackingEventDeleteSchema } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/services/auth.server';
import { redirectWithOutcome } from '~/lib/flash.server';
import {
  EVENT_GONE,
  eventSaveFailed,
  requireParcelEvent,
  trackingParcelPage,
} from '~/services/tracking-event-pages.server';
import { deleteEvent } from '~/services/tracking-events.server';
import { formatEventTime } from '~/utils/format';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const event = await requireParcelEvent(params);
  return json({ event });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: TrackingEventDeleteSchema,
  });
  if (submission.status !== 'success') return invalidForm(submission);
  const parcelId = params.parcelId ?? '';
  let removed;
  try {
    removed = await deleteEvent(params.eventId ?? '', { parcelId }, { user, context });
  } catch (error) {
    return eventSaveFailed(request, 'delete', submission, error);
  }
  const parcelPage = trackingParcelPage(request, parcelId);
  return redirectWithOutcome(request, parcelPage, removed, {
    gone: { title: 'Failed to delete tracking event', description: EVENT_GONE },
    done: { title: 'Tracking event deleted' },
  });
}

export const meta: MetaFunction = () => [
  { title: 'Delete Event · Tracking · Management dashboard' },
];

export default function DeleteEventDialog() {
  const { event } = useLoaderData<typeof loader>();
  const [form] = useForm({ lastResult: useActionData<typeof action>() });
  const { parcelId } = useParams();
  const { search } = useLocation();
  const closeTo = `/dashboard/tracking/${parcelId}${search}`;
  return (
    <DeleteDialog title="Delete Event" closeTo={closeTo} form={form}>
      <p className="text-gray-700">
        Are you sure you want to delete the tracking event <strong>{event.status}</strong>
        {event.location ? <> at {event.location}</> : null} (
        <time dateTime={event.timestamp ?? undefined} suppressHydrationWarning>
          {formatEventTime(event.timestamp, event.timeZone)}
        </time>
        )? This cannot be undone.
      </p>
    </DeleteDialog>
  );
}
