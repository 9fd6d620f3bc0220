import { env } from '~/lib/env.server';
import { refuseUnpaidParcels } from './card-payments.server';
import { ConflictError, NotFoundError, ValidationError } from '~/lib/errors.server';
import { scopeOf, scopeFilter } from '~/lib/tenancy.server';
import { getAccount } from '~/models/account.server';
import { listDepots } from '~/models/depot.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import { parcelInScope } from '~/models/parcel-reads.server';
import {
  closePickup,
  getPickup,
  insertPickup,
  listPickups,
  markPickupCancelled,
  notePickupParcel,
  type SerializedPickup,
} from '~/models/pickup.server';
import type { AccountAddress } from '~/schemas/account';
import type { WebhookEventType } from '~/schemas/integrations';
import { PICKUP_DAYS_AHEAD, type PickupCreateInput, type PickupOutcome } from '~/schemas/pickup';
import { addDays, dayIn, nextWorkingDay } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import { auditRecord, type Actor } from './audit.server';
import { notePickupStopDone } from './run-progress.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Pickups: a shipper asks for a courier on a business day (Monday to Friday) within a window.
 * The same day is taken until the cut-off (Settings → Depots, 14:00 company time unless
 * changed), and a pickup is cancelled until the cut-off of its own day. On the day, a pickup is
 * a stop of a courier's run, which collects it (Collected with the count, or Not collected with
 * a reason), or a parcel of it scanned Picked Up does (one it names, or for one that gives a
 * count, one its account sends from its address): the first completes it. Each change is
 * audited and sent to webhooks.
 */

/** A pickup asked for too late, or for a day without pickups: `nextDate` is the first one open. */
export class PickupTooLateError extends ValidationError {
  constructor(message: string, nextDate: string) {
    super({ date: [message], nextDate: [nextDate] }, message, 'pickup_too_late');
    this.options.extra = { nextDate };
  }
}

const isBusinessDay = (day: string) => ![0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/** The instant the cut-off of `day` passes, in the company's zone. */
function cutoffOf(day: string, cutoff: string): Date {
  return zonedDateTimeToUtc(day, cutoff, env.COMPANY_TIMEZONE);
}

/** The first day a pickup asked for at `now` may be on. */
export function firstPickupDay(now: Date, cutoff: string): string {
  const today = dayIn(now, env.COMPANY_TIMEZONE);
  return isBusinessDay(today) && now < cutoffOf(today, cutoff) ? today : nextWorkingDay(today);
}

/** Refuses a day that is past its cut-off or not a business day, naming the next one open. */
export function checkPickupDay(day: string, now: Date, cutoff: string) {
  const first = firstPickupDay(now, cutoff);
  if (day < first)
    throw new PickupTooLateError(
      `Pickups for ${day} closed at ${cutoff}: the next possible day is ${first}`,
      first,
    );
  if (!isBusinessDay(day))
    throw new PickupTooLateError(
      `Pickups are Monday to Friday: the next possible day is ${nextWorkingDay(day)}`,
      nextWorkingDay(day),
    );
  if (day > addDays(first, PICKUP_DAYS_AHEAD))
    throw new ValidationError({ date: [`At most ${PICKUP_DAYS_AHEAD} days ahead`] });
}

/** The depot whose town the address is in, when one is. */
async function depotFor(address: AccountAddress): Promise<string | null> {
  const city = address.city.trim().toLowerCase();
  const depot = (await listDepots()).find((d) => d.city && d.city.trim().toLowerCase() === city);
  return depot?.id ?? null;
}

function pickupLabel(pickup: SerializedPickup) {
  return `${pickup.date} ${pickup.window.from}–${pickup.window.until} · ${pickup.parcelCount} parcels`;
}

function emitPickup(type: Extract<WebhookEventType, `pickup.${string}`>, pickup: SerializedPickup) {
  return emitWebhookEvent(
    type,
    { pickup },
    { accountId: pickup.accountId, livemode: pickup.livemode },
  );
}

/**
 * Asks for a pickup: an account's at its pickup address unless another is given, for its own
 * parcels (another's is not found); staff for the company give the address.
 */
export async function requestPickup(
  input: PickupCreateInput,
  actor: Actor,
  now = new Date(),
): Promise<SerializedPickup> {
  const scope = scopeOf(actor);
  const { pickupCutoff } = await getOperationsSettings();
  checkPickupDay(input.date, now, pickupCutoff);
  const parcelIds = input.parcelIds?.map((id) => id.toLowerCase()) ?? [];
  for (const id of parcelIds)
    if (!(await parcelInScope(id, scopeFilter(scope))))
      throw new NotFoundError(`No parcel has the id ${id}`);
  await refuseUnpaidParcels(parcelIds);
  let address = input.address;
  if (!address && scope) {
    const pickupAddress = (await getAccount(scope.accountId))?.pickupAddress;
    if (pickupAddress?.address) address = pickupAddress;
  }
  if (!address) throw new ValidationError({ address: ['Give the address to collect from'] });
  const parcelCount = parcelIds.length || input.parcelCount;
  if (!parcelCount)
    throw new ValidationError({ parcelCount: ['Give the parcels or how many there are'] });
  const pickup = await insertPickup({
    scope,
    date: input.date,
    window: input.window,
    address,
    depotId: await depotFor(address),
    parcelIds: [...new Set(parcelIds)],
    parcelCount,
    notes: input.notes,
  });
  await auditRecord(actor, 'create', 'pickup', { label: pickupLabel(pickup), after: pickup });
  await emitPickup('pickup.scheduled', pickup);
  return pickup;
}

/** Cancels a scheduled pickup until its day's cut-off; null for an unknown one. */
export async function cancelPickup(
  id: string,
  actor: Actor,
  now = new Date(),
): Promise<SerializedPickup | null> {
  const pickup = await getPickup(id);
  if (!pickup) return null;
  if (pickup.status !== 'scheduled')
    throw new ConflictError(`This pickup is ${pickup.status} already`, { code: 'pickup_closed' });
  const { pickupCutoff } = await getOperationsSettings();
  if (now >= cutoffOf(pickup.date, pickupCutoff))
    throw new ConflictError(
      `Pickups for ${pickup.date} can no longer be cancelled: the cut-off was ${pickupCutoff}`,
      { code: 'pickup_closed' },
    );
  const cancelled = await markPickupCancelled(id, now);
  if (!cancelled)
    throw new ConflictError('This pickup is no longer scheduled', { code: 'pickup_closed' });
  await auditRecord(actor, 'update', 'pickup', {
    label: pickupLabel(cancelled),
    before: pickup,
    after: cancelled,
  });
  await emitPickup('pickup.cancelled', cancelled);
  return cancelled;
}

/** A pickup done: audited, `pickup.completed`, and its stop on a started run collected. */
async function pickupCompleted(pickup: SerializedPickup, at: Date, actor?: Actor) {
  await auditRecord(actor, 'update', 'pickup', { label: pickupLabel(pickup), after: pickup });
  await emitPickup('pickup.completed', pickup);
  await notePickupStopDone(pickup.id, 'collected', at);
}

/**
 * A parcel scanned Picked Up on the company's day: the pickups of that day it belongs to are
 * done (`pickup.completed`, once each), and it counts as collected. Called by recordEvent; a
 * failure here is logged and never fails the scan.
 */
export async function notePickedUp(
  parcel: {
    id: string;
    accountId?: string | null;
    livemode?: boolean;
    sender?: { address?: string | null; postalCode?: string | null } | null;
  },
  at: Date,
) {
  try {
    const completed = await notePickupParcel(
      {
        id: parcel.id,
        accountId: parcel.accountId ?? null,
        livemode: parcel.livemode !== false,
        sender: parcel.sender ?? null,
      },
      dayIn(at, env.COMPANY_TIMEZONE),
      at,
    );
    for (const pickup of completed) await pickupCompleted(pickup, at);
  } catch (error) {
    console.error('Could not mark the pickups of a parcel picked up', error);
  }
}

/**
 * A pickup stop's outcome on the courier's run (the page's form and POST
 * /api/pickups/:id/outcome): Collected (the pickup done with the count handed over,
 * `pickup.completed`) or Not collected (missed, with its reason, `pickup.missed`); either way its
 * stop is done. A pickup no longer scheduled (collected by a scan, cancelled) is a conflict.
 */
export async function recordPickupStop(
  pickupId: string,
  input: PickupOutcome,
  actor: Actor,
  at = new Date(),
): Promise<SerializedPickup> {
  const before = await getPickup(pickupId);
  if (!before) throw new NotFoundError('Pickup not found');
  const closed = await closePickup(
    pickupId,
    at,
    input.outcome === 'collected'
      ? { status: 'completed', collectedCount: input.collectedCount }
      : { status: 'missed', reason: input.reason, note: input.note },
  );
  if (!closed) {
    // Closed meanwhile (a scan collected it, the shipper cancelled): its stop is done all the same.
    const now = await getPickup(pickupId);
    await notePickupStopDone(
      pickupId,
      now?.status === 'completed' ? 'collected' : 'not_collected',
      at,
    );
    throw new ConflictError(`This pickup is ${now?.status ?? before.status} already`, {
      code: 'pickup_closed',
    });
  }
  if (closed.status === 'completed') return (await pickupCompleted(closed, at, actor), closed);
  await auditRecord(actor, 'update', 'pickup', {
    label: pickupLabel(closed),
    before,
    after: closed,
  });
  await emitPickup('pickup.missed', closed);
  await notePickupStopDone(closed.id, 'not_collected', at);
  return closed;
}

export { getPickup, listPickups };
