import {
  findParcelIdByTrackingNumber,
  getParcel,
  insertParcel,
  removeParcel,
  updateParcelFields,
  type SerializedParcel,
} from '~/models/parcel.server';
import type { ParcelCreateInput, ParcelUpdateInput } from '~/schemas/parcel';
import { normalizeTrackingNumber, TRACKING_NUMBER_PATTERN } from '~/schemas/constants';
import { ApiError } from '~/lib/api.server';
import { isObjectId } from '~/lib/db.server';
import { auditRecord, type Actor } from './audit.server';
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
    throw new ApiError(400, 'Invalid parcel id', { [name]: [message] });
  }
  const id = await findParcelIdByTrackingNumber(trackingNumber);
  if (!id) throw trackingNumberNotFound(notFound(trackingNumber));
  return id;
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
  const parcel = await insertParcel(input);
  await emitWebhookEvent('parcel.created', { parcel });
  await auditRecord(actor, 'create', 'parcel', { label: parcel.trackingNumber, after: parcel });
  return parcel;
}

/** Only the fields given change (nested ones too); null when there is no such parcel. */
export async function updateParcel(
  id: string,
  changes: ParcelUpdateInput,
  actor?: Actor,
): Promise<SerializedParcel | null> {
  const before = actor ? await getParcel(id) : null;
  const result = await updateParcelFields(id, changes);
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
