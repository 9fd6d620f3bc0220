import { findParcelIdByTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { getParcel, getParcelSchedule } from '~/models/parcel-reads.server';
import {
  insertParcel,
  removeParcel,
  updateParcelFields,
  type StoredWindow,
} from '~/models/parcel-writes.server';
import { type SerializedParcel } from '~/models/parcel.server';
import type { DeliveryWindowInput, ParcelCreateInput, ParcelUpdateInput } from '~/schemas/parcel';
import { recipientTimeZone, type ZonedParcel } from '~/lib/address-time-zone.server';
import { dayIn } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import { normalizeTrackingNumber, TRACKING_NUMBER_PATTERN } from '~/schemas/constants';
import { ValidationError } from '~/lib/errors.server';
import { isObjectId } from '~/lib/db.server';
import { auditRecord, type Actor } from './audit.server';
import { planDayBeforeEmail } from './day-before-emails.server';
import { emitWebhookEvent } from './webhooks.server';
import { notFound, trackingNumberNotFound } from './public-tracking.server';

/**
 * The parcel a URL parameter (`name`) names, by its id or by its tracking number (any case,
 * spaces around it ignored), as its id: every per-parcel API route reads its parcel through this.
 * An id is returned as given (the route answers 404 when no parcel has it); a tracking number no
 * parcel has is a 404 with code tracking_number_mistyped or tracking_number_not_found, as the
 * public lookup answers; anything else is a 400 naming the parameter.
 */
export async function resolveParcelRef(value: string | undefined, name: string): Promise<string> {
  if (isObjectId(value)) return value;
  const trackingNumber = normalizeTrackingNumber(value ?? '');
  if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) {
    const message = 'Expected a parcel id (24 hex digits) or a tracking number, e.g. SWX123456789';
    throw new ValidationError({ [name]: [message] }, 'Invalid parcel id');
  }
  const id = await findParcelIdByTrackingNumber(trackingNumber);
  if (!id) throw trackingNumberNotFound(notFound(trackingNumber));
  return id;
}

/** The calendar day a parcel's estimated delivery names (kept as midnight UTC of that day). */
const estimatedDay = (date: Date | string) => new Date(date).toISOString().slice(0, 10);

/**
 * The window a change stores, on the estimated day (the one given, else the parcel's), in the
 * recipient's zone (their address as changed, else as stored): the forms' times on that day, or
 * the API's instants, which must fall on it; null removes it. A new estimated day given without a
 * window removes a window left on another day, so the parcel never shows times on a day it is no
 * longer expected. Undefined: no change.
 */
async function windowToStore(
  id: string | null,
  changes: {
    estimatedDelivery?: Date;
    deliveryWindow?: DeliveryWindowInput;
    recipient?: ZonedParcel['recipient'];
    destinations?: ZonedParcel['destinations'];
  },
): Promise<StoredWindow | undefined> {
  const { estimatedDelivery, deliveryWindow } = changes;
  if (deliveryWindow === undefined && !estimatedDelivery) return undefined;
  if (deliveryWindow === null) return null;
  const stored = id ? await getParcelSchedule(id) : null;
  const when = estimatedDelivery ?? stored?.estimatedDelivery;
  const day = when ? estimatedDay(when) : null;
  const zone = recipientTimeZone({
    recipient: { ...stored?.recipient, ...changes.recipient },
    destinations: changes.destinations ?? stored?.destinations,
  });
  if (deliveryWindow === undefined) {
    const until = stored?.deliveryWindow?.until;
    return until && dayIn(new Date(until), zone) !== day ? null : undefined;
  }
  const refuse = (message: string) => new ValidationError({ deliveryWindow: [message] });
  if (!day) {
    // No such parcel: the update answers that.
    if (id && !stored) return undefined;
    throw refuse('Give the estimated delivery day the window is on');
  }
  if ('fromTime' in deliveryWindow)
    return {
      from: zonedDateTimeToUtc(day, deliveryWindow.fromTime, zone),
      until: zonedDateTimeToUtc(day, deliveryWindow.untilTime, zone),
    };
  if (dayIn(deliveryWindow.from, zone) !== day || dayIn(deliveryWindow.until, zone) !== day)
    throw refuse(`The window must be on the estimated delivery day, ${day} (${zone})`);
  return deliveryWindow;
}

/**
 * The changes to a parcel, each with everything that goes with it: the write, the audit entry
 * and the webhooks. The dashboard's forms, the table's bulk actions and the API call these, so a
 * change looks the same whichever way it was made.
 */

export async function createParcel(
  input: ParcelCreateInput,
  actor?: Actor,
): Promise<SerializedParcel> {
  const parcel = await insertParcel({
    ...input,
    deliveryWindow: await windowToStore(null, input),
  });
  await emitWebhookEvent('parcel.created', { parcel });
  await auditRecord(actor, 'create', 'parcel', { label: parcel.trackingNumber, after: parcel });
  await planDayBeforeEmail(parcel);
  return parcel;
}

/** Only the fields given change (nested ones too); null when there is no such parcel. */
export async function updateParcel(
  id: string,
  changes: ParcelUpdateInput,
  actor?: Actor,
  { version }: { version?: number | null } = {},
): Promise<SerializedParcel | null> {
  const before = actor ? await getParcel(id) : null;
  const result = await updateParcelFields(
    id,
    { ...changes, deliveryWindow: await windowToStore(id, changes) },
    { version },
  );
  if (!result) return null;
  const { parcel, previousStatus } = result;
  await emitWebhookEvent('parcel.updated', { parcel });
  if (previousStatus && previousStatus !== parcel.status)
    await emitWebhookEvent('parcel.status_changed', { parcel, previousStatus });
  await auditRecord(actor, 'update', 'parcel', {
    label: parcel.trackingNumber,
    before,
    after: parcel,
  });
  if (changes.estimatedDelivery) await planDayBeforeEmail(parcel);
  return parcel;
}

/** Deletes a parcel and its tracking events; returns it as it was, or null when unknown. */
export async function deleteParcel(id: string, actor?: Actor): Promise<SerializedParcel | null> {
  const parcel = await removeParcel(id);
  if (!parcel) return null;
  await emitWebhookEvent('parcel.deleted', { parcel });
  await auditRecord(actor, 'delete', 'parcel', { label: parcel.trackingNumber, before: parcel });
  return parcel;
}
