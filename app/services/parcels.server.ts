import {
  getParcel,
  insertParcel,
  removeParcel,
  updateParcelFields,
  type SerializedParcel,
} from '~/models/parcel.server';
import type { ParcelCreateInput, ParcelUpdateInput } from '~/schemas/parcel';
import { auditRecord, type Actor } from './audit.server';
import { emitWebhookEvent } from './webhooks.server';

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
