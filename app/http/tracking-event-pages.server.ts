import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { json, type ActionFunctionArgs } from '@remix-run/node';
import type { z } from 'zod';
import { listDepots } from '~/models/depot.server';
import { getEvent } from '~/models/tracking-event.server';
import { redirectWithOutcome, redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, saveFailed } from '~/lib/form-reply.server';
import type { DepotChoice } from '~/schemas/depot';
import { eventFormSchema } from '~/schemas/tracking-event';
import type { Actor } from '~/services/audit.server';
import { requireUserWithRole } from './auth.server';

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
const EVENT_GONE = 'The tracking event no longer exists.';

/** The event form's schema, knowing the depots there are now. */
export async function eventFormWithDepots() {
  return eventFormSchema(await depotChoices());
}

const EVENT_CHANGED = { add: 'added', update: 'updated', delete: 'deleted' } as const;

/**
 * The action of the dialogs that add, edit and delete a parcel's event: staff only; the form again
 * when it was refused or saving failed on our side; else the parcel's page with the spec's toast,
 * or the error toast when the event (when adding, the parcel) was gone meanwhile.
 */
export async function eventDialogAction<S extends z.ZodType>(
  { request, params, context }: ActionFunctionArgs,
  change: keyof typeof EVENT_CHANGED,
  schema: () => S | Promise<S>,
  save: (value: z.output<S>, parcelId: string, actor: Actor) => Promise<unknown>,
) {
  const user = await requireUserWithRole(request, 'staff');
  const parcelId = params.parcelId ?? '';
  const submission = parseWithZod(await readFormData(request), { schema: await schema() });
  if (submission.status !== 'success') return invalidForm(submission);
  let saved;
  try {
    saved = await save(submission.value, parcelId, { user, context });
  } catch (error) {
    return eventSaveFailed(request, change, submission, error);
  }
  if (!saved && change === 'add') {
    return redirectWithToast(request, '/dashboard/tracking', {
      type: 'error',
      title: 'Failed to add tracking event',
      description: 'The parcel no longer exists.',
    });
  }
  return redirectWithOutcome(request, trackingParcelPage(request, parcelId), saved, {
    gone: { title: `Failed to ${change} tracking event`, description: EVENT_GONE },
    done: { title: `Tracking event ${EVENT_CHANGED[change]}` },
  });
}
