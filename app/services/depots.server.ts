import {
  getDepot,
  insertDepot,
  removeDepot,
  updateDepotFields,
  type SerializedDepot,
} from '~/models/depot.server';
import { saveOperationsSettings } from '~/models/operations-settings.server';
import { isDuplicateKey } from '~/lib/db.server';
import { ConflictError } from '~/lib/errors.server';
import type { DepotInput } from '~/schemas/depot';
import { auditedCreate, auditRecord, type Actor } from './audit.server';

/** Depots and the exceptions setting, changed by admins: each change is audited. */

/** The API answers it 409 like any conflict; the settings page shows it on the name field. */
export class DepotNameTaken extends ConflictError {
  constructor() {
    super('A depot with this name already exists');
  }
}

async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error, 'name')) throw new DepotNameTaken();
    throw error;
  }
}

export async function createDepot(input: DepotInput, actor?: Actor): Promise<SerializedDepot> {
  return auditedCreate(
    actor,
    'depot',
    (depot) => depot.name,
    () => writing(() => insertDepot(input)),
  );
}

export async function updateDepot(
  id: string,
  input: DepotInput,
  actor?: Actor,
): Promise<SerializedDepot | null> {
  const written = await writing(() => updateDepotFields(id, input));
  if (!written) return null;
  await auditRecord(actor, 'update', 'depot', { label: written.after.name, ...written });
  return written.after;
}

/** Removes a depot; the events recorded there keep its name and zone. */
export async function deleteDepot(id: string, actor?: Actor): Promise<SerializedDepot | null> {
  const depot = await removeDepot(id);
  if (depot) await auditRecord(actor, 'delete', 'depot', { label: depot.name, before: depot });
  return depot;
}

async function saveSettings(
  label: string,
  input: Parameters<typeof saveOperationsSettings>[0],
  actor?: Actor,
) {
  const { before, after } = await saveOperationsSettings(input);
  await auditRecord(actor, 'update', 'settings', {
    label,
    before: { id: 'operations', ...before },
    after: { id: 'operations', ...after },
  });
  return after;
}

export function saveStaleScanDays(staleScanDays: number, actor?: Actor) {
  return saveSettings('Exceptions', { staleScanDays }, actor);
}

/** Whether a scan naming who received a parcel may record it Delivered. */
export function saveDeliveredByScan(deliveredByScan: boolean, actor?: Actor) {
  return saveSettings('Deliveries', { deliveredByScan }, actor);
}

/** Until when (company time) a pickup may be asked for or cancelled for the same day. */
export function savePickupCutoff(pickupCutoff: string, actor?: Actor) {
  return saveSettings('Pickups', { pickupCutoff }, actor);
}

export { getDepot };
