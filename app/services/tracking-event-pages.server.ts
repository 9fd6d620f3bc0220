import type { Submission } from '@conform-to/react';
import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { getEvent } from '~/models/tracking-event.server';
import { saveFailed } from '~/lib/form-reply.server';
import type { DepotChoice } from '~/schemas/depot';

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
export function eventSaveFailed(
  request: Request,
  verb: 'add' | 'update' | 'delete',
  submission: Submission<unknown>,
  error: unknown,
) {
  const title = `Failed to ${verb} tracking event`;
  return saveFailed(request, submission, error, {
    formError: `${title}. Please try again later.`,
    toast: { title, description: 'Please try again later.' },
  });
}

/** The depots the event forms offer: what they need to take a depot's name and zone. */
export async function depotChoices(): Promise<DepotChoice[]> {
  return (await listDepots()).map(({ id, name, timeZone }) => ({ id, name, timeZone }));
}

/** What the event pages say of an event deleted meanwhile. */
export const EVENT_GONE = 'The tracking event no longer exists.';
