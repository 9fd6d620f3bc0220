import { NotFoundError, ValidationError } from '~/lib/errors.server';
import { refuseUnpaid } from './card-payments.server';
import { env } from '~/lib/env.server';
import { getDepot } from '~/models/depot.server';
import { eventScannedBy } from '~/models/delivery.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import { getParcel, getParcelByTrackingNumber } from '~/models/parcel-reads.server';
import { type SerializedParcel } from '~/models/parcel.server';
import { listProofs, type SerializedProof } from '~/models/proof-of-delivery.server';
import { getEvent, type TrackingEvent } from '~/models/tracking-event.server';
import { FINAL_STATUSES, STATUS_PROGRESS, type ParcelStatus } from '~/schemas/constants';
import { hasRole } from '~/schemas/user';
import type { ScanInput } from '~/schemas/scan';
import { addDays, dayIn, initials, longDay } from '~/utils/delivery-headline';
import { formatDateTime } from '~/utils/format';
import { hasValidCheckDigit } from '~/utils/tracking-number';
import type { Actor } from './audit.server';
import { recordProofOfDelivery } from './proof-of-delivery.server';
import { deleteEvent, recordEvent } from './tracking-events.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Scans: a parcel found by its tracking number gets an event at a depot or a place, through the
 * same recordEvent path as every event (status, e-mails, webhooks, audit), plus `parcel.scanned`.
 * A label read twice within REPEAT_WINDOW_MS (same status, same place) records nothing new and
 * answers the first scan, so a customer is not e-mailed twice.
 *
 * A parcel's status moves forward by rule here. A delivered or returned parcel is final for scans:
 * the scan is refused with what ended its journey (`closed`), decided in the same atomic write
 * that would have added the event; only staff reopen it (reopenParcel). A scan that moves a parcel
 * further back (Out for Delivery → In Transit) is recorded and flagged (`regressedFrom`).
 * Delivered comes from a proof of delivery of one stop: from the proof form (`needs-proof`
 * points there), or, where the settings allow it, from a scan naming who received it, which
 * records that stop's proof; a parcel is Delivered with its last stop. An Out for Delivery scan
 * that contradicts the recipient's request (another day, hold at the depot) or the town the
 * parcel goes to is answered with the warnings (`needs-confirmation`) and recorded only with
 * `override`, which the event keeps.
 */
export const REPEAT_WINDOW_MS = 5 * 60_000;

export type ScanOutcome =
  | {
      kind: 'recorded' | 'repeated';
      event: TrackingEvent;
      parcel: SerializedParcel;
      /** The status the scan moved the parcel back from. */
      regressedFrom?: ParcelStatus | null;
      /** A Delivered scan: the stop's proof of delivery it recorded. */
      proofOfDelivery?: SerializedProof;
    }
  | { kind: 'not-found'; trackingNumber: string; mistyped: boolean }
  | { kind: 'closed'; parcel: SerializedParcel; message: string }
  | { kind: 'needs-proof'; parcel: SerializedParcel; destination: number; message: string }
  | { kind: 'needs-confirmation'; parcel: SerializedParcel; warnings: string[] };

/** The stops of a parcel that have no proof of delivery yet, in order. */
export async function stopsToDeliver(parcel: SerializedParcel): Promise<number[]> {
  const delivered = new Set((await listProofs(parcel.id)).map((proof) => proof.destination));
  const stops = Math.max(parcel.destinations.length, 1);
  return Array.from({ length: stops }, (_, i) => i).filter((i) => !delivered.has(i));
}

/**
 * Why a delivered or returned parcel takes no scan, as the station says it: "Delivered on 28 Nov
 * 2026, 5:55 pm PST to J. S." (the place's own time, the receiver by initials).
 */
async function closedMessage(parcel: SerializedParcel): Promise<string> {
  const ending = parcel.status === 'Delivered' ? 'Delivered' : 'Returned to Sender';
  const event = parcel.events?.find((e) => e.status === ending);
  const zone = event?.timeZone ?? env.COMPANY_TIMEZONE;
  if (parcel.status !== 'Delivered') {
    const when = event?.timestamp ? ` on ${formatDateTime(event.timestamp, zone)}` : '';
    return `Returned to the sender${when}: scans no longer change it. Staff can reopen it.`;
  }
  const proofs = await listProofs(parcel.id);
  const last = proofs.sort((a, b) => b.deliveredAt.localeCompare(a.deliveredAt))[0];
  const at = last?.deliveredAt ?? parcel.actualDelivery ?? event?.timestamp;
  const when = at ? ` on ${formatDateTime(at, zone)}` : '';
  const to = last?.receivedBy ? ` to ${initials(last.receivedBy)}` : '';
  return `Delivered${when}${to}: scans no longer change it. Staff can reopen it.`;
}

const townKey = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * What an Out for Delivery scan of this parcel would contradict: the recipient asked for it to
 * be held at the depot or delivered on a later day (today is the company's), or the depot's town
 * is not one the parcel still goes to.
 */
async function outForDeliveryWarnings(
  parcel: SerializedParcel,
  input: ScanInput,
): Promise<string[]> {
  const warnings: string[] = [];
  const preferences = parcel.deliveryPreferences;
  if (preferences?.holdAtDepot)
    warnings.push('The recipient asked us to hold it at the depot for collection.');
  const today = dayIn(new Date(), env.COMPANY_TIMEZONE);
  if (preferences?.requestedDate && preferences.requestedDate > today)
    warnings.push(
      `The recipient asked for delivery on ${longDay(preferences.requestedDate)}${
        preferences.requestedDate === addDays(today, 1) ? ' (tomorrow)' : ''
      }, not today.`,
    );
  const depot = input.depotId ? await getDepot(input.depotId) : null;
  if (depot?.city) {
    const left = new Set(await stopsToDeliver(parcel));
    const towns = [
      ...parcel.destinations.filter((_, i) => left.has(i)).map((d) => d.city),
      parcel.recipient.city,
    ].filter((town) => townKey(town));
    if (towns.length && !towns.some((town) => townKey(town) === townKey(depot.city)))
      warnings.push(`It goes to ${towns[0]}; ${depot.name} delivers in ${depot.city}.`);
  }
  return warnings;
}

export async function recordScan(input: ScanInput, actor: Actor): Promise<ScanOutcome> {
  const notFound = {
    kind: 'not-found' as const,
    trackingNumber: input.trackingNumber,
    mistyped: !hasValidCheckDigit(input.trackingNumber),
  };
  // One read of the parcel, for what the scan decides on; the write then returns it as it leaves it.
  const found = await getParcelByTrackingNumber(input.trackingNumber);
  if (!found) return notFound;
  refuseUnpaid(found);
  if (FINAL_STATUSES.includes(found.status as ParcelStatus))
    return { kind: 'closed', parcel: found, message: await closedMessage(found) };
  if (input.status === 'Delivered') return deliverByScan(found, input, actor);

  let override: string[] | undefined;
  if (input.status === 'Out for Delivery') {
    const warnings = await outForDeliveryWarnings(found, input);
    if (warnings.length && !input.override)
      return { kind: 'needs-confirmation', parcel: found, warnings };
    if (warnings.length) override = warnings;
  }
  const recorded = await recordEvent(
    found.id,
    {
      status: input.status,
      location: input.location ?? '',
      description: input.note ?? '',
      timestamp: input.timestamp,
      timeZone: input.timeZone,
      depotId: input.depotId,
      reason: input.reason,
      nextAttemptDate: input.nextAttemptDate,
      override,
    },
    actor,
    { repeatWindowMs: REPEAT_WINDOW_MS, scannedBy: actor.user.id, refuseFinal: true, found: true },
  );
  if (!recorded) return notFound;
  const parcel = (!recorded.closed && recorded.parcel) || (await getParcel(found.id));
  if (!parcel) return notFound;
  if (recorded.closed) return { kind: 'closed', parcel, message: await closedMessage(parcel) };
  if (recorded.repeated) return { kind: 'repeated', event: recorded.event, parcel };
  const { events: _events, ...scanned } = parcel;
  await emitWebhookEvent('parcel.scanned', { parcel: scanned, event: recorded.event });
  const before = recorded.previousStatus as ParcelStatus | null | undefined;
  const regressedFrom =
    before && STATUS_PROGRESS[before] > STATUS_PROGRESS[parcel.status as ParcelStatus]
      ? before
      : null;
  return { kind: 'recorded', event: recorded.event, parcel, regressedFrom };
}

export const RECEIVED_BY_NEEDED = 'Enter the name of the person who received the parcel';

/**
 * A Delivered scan: where the settings allow it and the scan names who received the parcel, the
 * proof of delivery of the stop (`destination`, or the first not delivered), which adds the
 * stop's Delivered event; otherwise the way to the proof form.
 */
async function deliverByScan(
  parcel: SerializedParcel,
  input: ScanInput,
  actor: Actor,
): Promise<ScanOutcome> {
  const left = await stopsToDeliver(parcel);
  const destination = input.destination ?? left[0] ?? 0;
  const { deliveredByScan } = await getOperationsSettings();
  if (!deliveredByScan)
    return {
      kind: 'needs-proof',
      parcel,
      destination,
      message: 'Delivered is recorded with a proof of delivery.',
    };
  if (!input.receivedBy) throw new ValidationError({ receivedBy: [RECEIVED_BY_NEEDED] });
  const { proof } = await recordProofOfDelivery(
    parcel.id,
    {
      receivedBy: input.receivedBy,
      destination,
      note: input.note ?? '',
      signatureName: '',
      photo: [],
    },
    actor,
  );
  const [event, after] = await Promise.all([
    proof.eventId ? getEvent(proof.eventId) : null,
    getParcel(parcel.id),
  ]);
  if (!event || !after) throw new NotFoundError('Parcel not found');
  const { events: _events, ...scanned } = after;
  await emitWebhookEvent('parcel.scanned', { parcel: scanned, event });
  return { kind: 'recorded', event, parcel: after, proofOfDelivery: proof };
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
