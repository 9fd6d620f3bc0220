import type { Submission } from '@conform-to/react';
import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { getEvent } from '~/models/tracking-event.server';
import type { DepotChoice } from '~/schemas/depot';
import { createToastHeaders } from '~/lib/flash.server';

/** The selected parcel's page in the Tracking tab, keeping the list's search. */
export function trackingParcelPage(request: Request, parcelId: string): string {
  return `/dashboard/tracking/${encodeURIComponent(parcelId)}${new URL(request.url).search}`;
}

/** The event the URL names, only when it belongs to the parcel the URL names; else 404. */
export async function requireParcelEvent(params: { parcelId?: string; eventId?: string }) {
  const event = await getEvent(params.eventId ?? '');
  if (!event || event.parcelId !== params.parcelId)
    throw json({ message: 'Tracking event not found' }, { status: 404 });
  return event;
}

/**
 * The answer when saving an event failed on our side: the form says so and the spec's toast
 * ('Failed to add tracking event' / 'Please try again later.', likewise update and delete) shows.
 */
export async function eventSaveFailed(
  request: Request,
  verb: 'add' | 'update' | 'delete',
  submission: Submission<unknown>,
  error: unknown,
) {
  console.error(`Could not ${verb} a tracking event:`, error);
  const title = `Failed to ${verb} tracking event`;
  return json(submission.reply({ formErrors: [`${title}. Please try again later.`] }), {
    status: 503,
    headers: await createToastHeaders(request, {
      type: 'error',
      title,
      description: 'Please try again later.',
    }),
  });
}

/** The depots the event forms offer: what they need to take a depot's name and zone. */
export async function depotChoices(): Promise<DepotChoice[]> {
  return (await listDepots()).map(({ id, name, timeZone }) => ({ id, name, timeZone }));
}
