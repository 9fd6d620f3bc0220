import { getParcel, getParcelStatus, tenancyOf } from '~/models/parcel-reads.server';
import { type LeanParcel, type SerializedParcel, serializeParcel } from '~/models/parcel.server';
import {
  pullEvent,
  pushEvent,
  setEventFields,
  type StatusChange,
  type TrackingEvent,
} from '~/models/tracking-event.server';
import { getDepot } from '~/models/depot.server';
import { placeTimeZone } from '~/lib/address-time-zone.server';
import { FAILED_DELIVERY } from '~/schemas/constants';
import type { TrackingEventInput, TrackingEventUpdate } from '~/schemas/tracking-event';
import { audit, auditRecord, type Actor } from './audit.server';
import { queueStatusEmail } from './notifications.server';
import { queueStatusText } from './sms.server';
import { queueSubscriberEmails } from './parcel-subscriptions.server';
import { noteStopOutcome } from './run-progress.server';
import { notePickedUp } from './pickups.server';
import { emitWebhookEvent } from './webhooks.server';
// Reopening a delivered or returned parcel (reopenParcel).
import { isObjectId } from '~/lib/db.server';
import { ConflictError, ValidationError } from '~/lib/errors.server';
import { eventStatusLabel, FINAL_STATUSES, type ParcelStatus } from '~/schemas/constants';
import type { ParcelReopenInput } from '~/schemas/tracking-event';

/**
 * Recording a parcel's tracking events, with all that follows from each: the parcel's status
 * (kept by the model in the same write), the webhooks, the automatic status e-mail, the e-mails
 * to the parcel's followers and the audit entry. The Tracking tab, the API and a courier's scan
 * all call these.
 */

/**
 * After an event write changed the parcel's status: its webhook, then the automatic e-mail for
 * that status if the rules send one (once per event). A failure to queue the e-mail is logged;
 * the event stands.
 */
async function statusChanged(
  change: StatusChange | null,
  { email, parcel }: { email: boolean; parcel?: LeanParcel },
) {
  if (!change) return;
  await emitWebhookEvent('parcel.status_changed', {
    parcel: change.parcel,
    previousStatus: change.previousStatus,
  });
  if (!email || !change.setBy) return;
  try {
    await queueStatusEmail({ parcelId: change.parcel.id, ...change.setBy, parcel });
  } catch (error) {
    console.error('Could not queue the automatic status e-mail', error);
  }
  try {
    await queueStatusText({ parcelId: change.parcel.id, ...change.setBy, parcel });
  } catch (error) {
    console.error('Could not queue the automatic status text', error);
  }
}

/** What an event's webhook carries: the event, and the parcel it belongs to. */
async function emitEventChange(
  type: 'tracking_event.created' | 'tracking_event.updated' | 'tracking_event.deleted',
  event: TrackingEvent,
  parcel: Awaited<ReturnType<typeof getParcelStatus>>,
) {
  await emitWebhookEvent(
    type,
    {
      event,
      parcel: parcel
        ? { id: event.parcelId, trackingNumber: parcel.trackingNumber, status: parcel.status }
        : { id: event.parcelId },
    },
    // Whose the parcel is, so that its webhooks go to its account without reading it again.
    tenancyOf(parcel),
  );
}

export const UNKNOWN_DEPOT = 'Choose a depot from the list';

/**
 * An event at a depot takes the depot's name as its location and the depot's zone; one at a
 * place typed without a zone takes the place's when the place is a known town ("Seattle, WA"),
 * else it is shown in the company's.
 */
async function atDepot<T extends { depotId?: string; location?: string; timeZone?: string }>(
  input: T,
): Promise<T> {
  if (!input.depotId) {
    const zone = input.timeZone ? null : placeTimeZone(input.location);
    return zone ? { ...input, timeZone: zone } : input;
  }
  const depot = await getDepot(input.depotId);
  if (!depot) throw new ValidationError({ depotId: [UNKNOWN_DEPOT] });
  return { ...input, location: depot.name, timeZone: depot.timeZone };
}

/** Adds an event and updates the parcel's status; null when the parcel is unknown. */
export async function addEvent(
  parcelId: string,
  input: TrackingEventInput & { stop?: number },
  actor?: Actor,
): Promise<TrackingEvent | null> {
  const recorded = await recordEvent(parcelId, input, actor);
  return recorded && !recorded.closed ? recorded.event : null;
}

/** What recordEvent did: the event added (or the one repeated), or the final status it met. */
export type RecordedEvent =
  | {
      event: TrackingEvent;
      repeated: boolean;
      /** The parcel's status before, when the event changed it. */
      previousStatus?: string | null;
      /** The parcel as the event left it, when its write returned it (see pushEvent). */
      parcel?: SerializedParcel;
      closed?: undefined;
    }
  | { closed: ParcelStatus };

/**
 * Adds an event, as addEvent does. With `repeatWindowMs`, the same status at the same place
 * already added within that time is answered instead (`repeated`), and nothing else happens: no
 * second event, e-mail or webhook. With `refuseFinal`, a delivered or returned parcel gets no
 * event and its status is answered (`closed`). A ValidationError for an unknown depot.
 */
export async function recordEvent(
  parcelId: string,
  input: TrackingEventInput & { override?: string[] },
  actor?: Actor,
  {
    repeatWindowMs,
    scannedBy,
    refuseFinal,
    found,
  }: {
    repeatWindowMs?: number;
    scannedBy?: string;
    refuseFinal?: boolean;
    /** The caller has just read the parcel (a scan): it is not looked for again. */
    found?: boolean;
  } = {},
): Promise<RecordedEvent | null> {
  const written = await pushEvent(
    parcelId,
    { ...(await atDepot(input)), scannedBy },
    { repeatWindowMs, refuseFinal, found },
  );
  if (!written) return null;
  if (written.closed) return { closed: written.closed };
  if (written.repeated) return { event: written.event, repeated: true };
  const { event, statusChange, parcel: after } = written;
  await statusChanged(statusChange, { email: true, parcel: after });
  const parcel = after ?? (await getParcelStatus(event.parcelId));
  // The people who follow the parcel hear of every new event, until delivery. A failure to
  // queue their e-mails is logged; the event stands.
  try {
    await queueSubscriberEmails(event.parcelId, event.id, parcel?.status ?? null);
  } catch (error) {
    console.error("Could not queue the e-mails to the parcel's subscribers", error);
  }
  await emitEventChange('tracking_event.created', event, parcel);
  if (event.status === FAILED_DELIVERY) await emitDeliveryFailed(event, parcel);
  // A courier's run: the stop is done, and the windows of those to come move.
  await noteStopOutcome(event, parcel?.status);
  // A pickup: the parcel is in, and the pickups it completes are done.
  if (event.status === 'Picked Up')
    await notePickedUp(
      { id: event.parcelId, ...tenancyOf(parcel), sender: parcel?.sender },
      new Date(),
    );
  await auditRecord(actor, 'create', 'event', { label: eventStatusLabel(event), after: event });
  return {
    event,
    repeated: false,
    previousStatus: statusChange?.previousStatus,
    parcel: after && (statusChange?.parcel ?? serializeParcel(after)),
  };
}

/** `parcel.delivery_failed`: the attempt, why it failed and when the next one is. */
async function emitDeliveryFailed(
  event: TrackingEvent,
  parcel: Awaited<ReturnType<typeof getParcelStatus>>,
) {
  await emitWebhookEvent('parcel.delivery_failed', {
    parcel: {
      id: event.parcelId,
      trackingNumber: parcel?.trackingNumber ?? null,
      status: parcel?.status ?? null,
    },
    event,
    reason: event.reason,
    nextAttemptDate: event.nextAttemptDate,
  });
}

/**
 * Changes the fields given (others stay) of the event with this id and updates its parcel's
 * status. `parcelId` optionally restricts it to one parcel. Null when not found.
 */
export async function updateEvent(
  eventId: string,
  input: TrackingEventUpdate,
  { parcelId, version }: { parcelId?: string; version?: number | null } = {},
  actor?: Actor,
): Promise<TrackingEvent | null> {
  const written = await setEventFields(eventId, await atDepot(input), { parcelId, version });
  if (!written) return null;
  const { before, event, statusChange } = written;
  await statusChanged(statusChange, { email: true });
  await emitEventChange('tracking_event.updated', event, await getParcelStatus(event.parcelId));
  await auditRecord(actor, 'update', 'event', {
    label: eventStatusLabel(event),
    before,
    after: event,
  });
  return event;
}

/**
 * Removes the event with this id and updates its parcel's status from the events left. Returns
 * the removed event, or null when not found. No e-mail goes out for the status it leaves.
 */
export async function deleteEvent(
  eventId: string,
  { parcelId }: { parcelId?: string } = {},
  actor?: Actor,
): Promise<TrackingEvent | null> {
  const written = await pullEvent(eventId, { parcelId });
  if (!written) return null;
  const { event, statusChange } = written;
  await statusChanged(statusChange, { email: false });
  await emitEventChange('tracking_event.deleted', event, await getParcelStatus(event.parcelId));
  await auditRecord(actor, 'delete', 'event', { label: eventStatusLabel(event), before: event });
  return event;
}

/** Reopening a parcel whose journey is not over. */
export class NotFinalError extends ConflictError {}

/**
 * Staff reopen a delivered or returned parcel, deliberately: an event with the status chosen and
 * the reason ("Reopened: …") goes into its timeline through recordEvent (status, e-mails and
 * webhooks as for any event; its proofs of delivery stay, as the record of what happened), and a
 * `reopen` entry with the reason into the audit trail. Null for an unknown parcel; NotFinalError
 * (409) for one that is not delivered or returned.
 */
export async function reopenParcel(
  parcelId: string,
  input: ParcelReopenInput,
  actor?: Actor,
): Promise<{ event: TrackingEvent; parcel: SerializedParcel } | null> {
  const before = isObjectId(parcelId) ? await getParcelStatus(parcelId) : null;
  if (!before) return null;
  const status = (before.status ?? 'Pending') as ParcelStatus;
  if (!FINAL_STATUSES.includes(status))
    throw new NotFinalError(
      `${before.trackingNumber} is ${status}: only a delivered or returned parcel is reopened`,
    );
  const recorded = await recordEvent(
    parcelId,
    { status: input.status, location: '', description: `Reopened: ${input.reason}` },
    actor,
  );
  const parcel = await getParcel(parcelId);
  if (!recorded || recorded.closed || !parcel) return null;
  await audit(actor, {
    action: 'reopen',
    entity: 'parcel',
    entityId: parcelId,
    parcelId,
    label: parcel.trackingNumber,
    before: { status },
    after: { status: parcel.status, reason: input.reason },
  });
  return { event: recorded.event, parcel };
}
