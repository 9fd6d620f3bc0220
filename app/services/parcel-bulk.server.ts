import { getParcel } from '~/models/parcel-reads.server';
import { type SerializedParcel } from '~/models/parcel.server';
import type { ParcelStatus } from '~/schemas/constants';
import { ParcelUpdateSchema } from '~/schemas/parcel';
import type { Actor } from './audit.server';
import { deleteParcel, updateParcel } from './parcels.server';

export type BulkResult = {
  /** Tracking numbers of the parcels changed (or deleted). */
  done: string[];
  /** Parcels already in the status asked for: left as they are. */
  unchanged: string[];
  /** Ids that are no parcel (any more). */
  missing: string[];
  /** Tracking numbers (or ids) whose change failed; the others still went through. */
  failed: string[];
};

/**
 * The table's bulk status change: each selected parcel goes through the same `updateParcel` as
 * the edit form and `PUT /api/parcels/:id`, so each change sends the same webhooks
 * (parcel.updated, parcel.status_changed) and records the same history. One at a time, in the
 * order selected; a parcel already in that status is left alone.
 */
export async function setParcelsStatus(
  ids: string[],
  status: ParcelStatus,
  who: Actor,
): Promise<BulkResult> {
  const result: BulkResult = { done: [], unchanged: [], missing: [], failed: [] };
  for (const id of ids) {
    let before: SerializedParcel | null = null;
    try {
      before = await getParcel(id);
      if (!before) {
        result.missing.push(id);
        continue;
      }
      if (before.status === status) {
        result.unchanged.push(before.trackingNumber);
        continue;
      }
      // The change as PUT /api/parcels/:id would read `{ status }`.
      const parcel = await updateParcel(id, ParcelUpdateSchema.parse({ status }), who);
      if (!parcel) {
        result.missing.push(id);
        continue;
      }
      result.done.push(parcel.trackingNumber);
    } catch (error) {
      console.error(`Could not change the status of parcel ${id}:`, error);
      result.failed.push(before?.trackingNumber ?? id);
    }
  }
  return result;
}

/**
 * The table's bulk delete: each parcel through the same `deleteParcel` (audit entry included) as
 * the single delete (its events go with it, parcel.deleted is sent).
 */
export async function deleteParcels(ids: string[], who: Actor): Promise<BulkResult> {
  const result: BulkResult = { done: [], unchanged: [], missing: [], failed: [] };
  for (const id of ids) {
    try {
      const deleted = await deleteParcel(id, who);
      if (!deleted) {
        result.missing.push(id);
        continue;
      }
      result.done.push(deleted.trackingNumber);
    } catch (error) {
      console.error(`Could not delete parcel ${id}:`, error);
      result.failed.push(id);
    }
  }
  return result;
}

/** "ABC…, DEF… and 3 more": a few tracking numbers for a message. */
export function someNumbers(numbers: string[], shown = 5): string {
  if (numbers.length <= shown) return numbers.join(', ');
  return `${numbers.slice(0, shown).join(', ')} and ${numbers.length - shown} more`;
}
