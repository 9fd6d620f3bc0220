import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { EventFormDialog } from '~/components/tracking/event-form';
import { toFormDateTime } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/http/auth.server';
import { env } from '~/lib/env.server';
import {
  depotChoices,
  eventDialogAction,
  eventFormWithDepots,
} from '~/http/tracking-event-pages.server';
import { addEvent } from '~/services/tracking-events.server';

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

export function action(args: ActionFunctionArgs) {
  return eventDialogAction(args, 'add', eventFormWithDepots, (value, parcelId, actor) =>
    addEvent(parcelId, value, actor),
  );
}

export const meta: MetaFunction = () => [{ title: 'Add Event · Tracking · Management dashboard' }];

export default function AddEventDialog() {
  const { now, timeZone, depots } = useLoaderData<typeof loader>();
  return (
    <EventFormDialog
      title="Add Event"
      description="Log a tracking event for this parcel."
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
      lastResult={useActionData<typeof action>()}
      submitLabel="Add Event"
      busyLabel="Adding..."
    />
  );
}
