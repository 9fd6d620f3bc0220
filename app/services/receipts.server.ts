import { nextSequence } from '~/models/counter.server';
import { getParcelForReceipt } from '~/models/parcel-reads.server';
import {
  getReceipt,
  insertReceipt,
  removeReceipt,
  updateReceiptFields,
  type SerializedReceipt,
} from '~/models/receipt.server';
import {
  formatReceiptNumber,
  type ReceiptGenerateInput,
  type ReceiptUpdateInput,
} from '~/schemas/receipt';
import { auditedDelete, auditedUpdate, auditRecord, type Actor } from './audit.server';

/** Receipts staff generate, change and delete (the Receipts tab and the API), each audited. */

const receiptLabel = (receipt: SerializedReceipt) => receipt.receiptNumber;

/**
 * Generates and stores a receipt for a parcel, numbered RCP-{year}-{sequence} from an atomic
 * counter. Returns null when the parcel does not exist (nothing is stored, and no number is
 * used up).
 */
export async function generateReceipt(
  parcelId: string,
  overrides: ReceiptGenerateInput = {},
  now: Date = new Date(),
  actor?: Actor,
): Promise<SerializedReceipt | null> {
  const parcel = await getParcelForReceipt(parcelId);
  if (!parcel) return null;
  const year = now.getUTCFullYear();
  const sequence = await nextSequence(`receipt-${year}`);
  const receipt = await insertReceipt({
    receiptNumber: formatReceiptNumber(year, sequence),
    parcel,
    overrides,
    now,
  });
  await auditRecord(actor, 'create', 'receipt', { label: receiptLabel(receipt), after: receipt });
  return receipt;
}

export async function updateReceipt(
  id: string,
  input: ReceiptUpdateInput,
  actor?: Actor,
  { version }: { version?: number | null } = {},
): Promise<SerializedReceipt | null> {
  return auditedUpdate(actor, 'receipt', receiptLabel, {
    read: () => getReceipt(id),
    write: () => updateReceiptFields(id, input, { version }),
  });
}

/** Deletes a receipt; returns it as it was, or null when there was none. */
export async function deleteReceipt(id: string, actor?: Actor): Promise<SerializedReceipt | null> {
  return auditedDelete(actor, 'receipt', receiptLabel, {
    read: () => getReceipt(id),
    remove: () => removeReceipt(id),
  });
}
