import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useParams } from '@remix-run/react';
import { EventForm } from '~/components/tracking/event-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { eventFormSchema, toFormDateTime } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/services/auth.server';
import { env } from '~/lib/env.server';
import { redirectWithToast } from '~/lib/flash.server';
import {
  depotChoices,
  eventSaveFailed,
  trackingParcelPage,
} from '~/services/tracking-event-pages.server';
import { addEvent } from '~/services/tracking-events.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  // The form's date and time default to now in the company's zone, computed here so both renders
  // agree. The zone is never the browser's: a depot's, else the one chosen, else the company's.
  const timeZone = env.COMPANY_TIMEZONE;
  return json({
    now: toFormDateTime(new Date(), timeZone),
    timeZone,
    depots: await depotChoices(),
  });
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
    event = await addEvent(parcelId, submission.value, { user, context });
  } catch (error) {
    return eventSaveFailed(request, 'add', submission, error);
  }
  if (!event) {
    return redirectWithToast(request, '/dashboard/tracking', {
      type: 'error',
      title: 'Failed to add tracking event',
      description: 'The parcel no longer exists.',
    });
  }
  return redirectWithToast(request, trackingParcelPage(request, parcelId), {
    type: 'success',
    title: 'Tracking event added',
  });
}

export const meta: MetaFunction = () => [{ title: 'Add Event · Tracking · Management dashboard' }];

export default function AddEventDialog() {
  const { now, timeZone, depots } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { parcelId } = useParams();
  const { search } = useLocation();
  const closeTo = `/dashboard/tracking/${parcelId}${search}`;
  return (
    <RouteDialog
      title="Add Event"
      closeTo={closeTo}
      description="Log a tracking event for this parcel."
    >
      <EventForm
        defaultValues={{
          status: 'In Transit',
          customStatus: '',
          depotId: '',
          location: '',
          description: '',
          reason: '',
          nextAttemptDate: '',
          ...now,
          timeZone,
        }}
        depots={depots}
        lastResult={lastResult}
        submitLabel="Add Event"
        busyLabel="Adding..."
        cancelTo={closeTo}
      />
    </RouteDialog>
  );
}
