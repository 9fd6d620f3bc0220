import { eventScannedBy, parcelIdByTrackingNumber } from '~/models/delivery.server';
import { getParcel, type SerializedParcel } from '~/models/parcel.server';
import { getEvent, type TrackingEvent } from '~/models/tracking-event.server';
import { hasRole } from '~/schemas/user';
import type { ScanInput } from '~/schemas/scan';
import { hasValidCheckDigit } from '~/utils/tracking-number';
import type { Actor } from './audit.server';
import { deleteEvent, recordEvent } from './tracking-events.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Scans: a parcel found by its tracking number gets an event at a depot or a place, through the
 * same addEvent path as every event (status, e-mails, webhooks, audit), plus `parcel.scanned`.
 * A label read twice within REPEAT_WINDOW_MS (same status, same place) records nothing new and
 * answers the first scan, so a customer is not e-mailed twice.
 */
export const REPEAT_WINDOW_MS = 5 * 60_000;

export type ScanOutcome =
  | { kind: 'recorded' | 'repeated'; event: TrackingEvent; parcel: SerializedParcel }
  | { kind: 'not-found'; trackingNumber: string; mistyped: boolean };

export async function recordScan(input: ScanInput, actor: Actor): Promise<ScanOutcome> {
  const notFound = {
    kind: 'not-found' as const,
    trackingNumber: input.trackingNumber,
    mistyped: !hasValidCheckDigit(input.trackingNumber),
  };
  const parcelId = await parcelIdByTrackingNumber(input.trackingNumber);
  if (!parcelId) return notFound;
  const recorded = await recordEvent(
    parcelId,
    {
      status: input.status,
      location: input.location ?? '',
      description: input.note ?? '',
      timestamp: input.timestamp,
      timeZone: input.timeZone,
      depotId: input.depotId,
      reason: input.reason,
      nextAttemptDate: input.nextAttemptDate,
    },
    actor,
    { repeatWindowMs: REPEAT_WINDOW_MS, scannedBy: actor.user.id },
  );
  const parcel = recorded ? await getParcel(parcelId) : null;
  if (!recorded || !parcel) return notFound;
  if (!recorded.repeated) {
    const { events: _events, ...scanned } = parcel;
    await emitWebhookEvent('parcel.scanned', { parcel: scanned, event: recorded.event });
  }
  return { kind: recorded.repeated ? 'repeated' : 'recorded', event: recorded.event, parcel };
}

export class UndoNotAllowed extends Error {
  constructor() {
    super('Only the courier who scanned it, or staff, can undo this scan');
  }
}

/**
 * Undoes a scan: removes its event through deleteEvent. Couriers undo their own scans; staff
 * any event. Null when the event is gone.
 */
export async function undoScan(eventId: string, actor: Actor): Promise<TrackingEvent | null> {
  if (!hasRole(actor.user, 'staff')) {
    const scannedBy = await eventScannedBy(eventId);
    if (!scannedBy && !(await getEvent(eventId))) return null;
    if (scannedBy !== actor.user.id) throw new UndoNotAllowed();
  }
  return deleteEvent(eventId, {}, actor);
}
