import { Schema } from 'mongoose';
import { STALE_SCAN_DAYS_DEFAULT } from '~/schemas/depot';
import { registeredModel } from '~/lib/records.server';

/** How deliveries are watched: one document, holding what admins changed from the defaults. */
const settingsSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    staleScanDays: { type: Number, default: STALE_SCAN_DAYS_DEFAULT },
  },
  { timestamps: true },
);

export const OperationsSettings = registeredModel('OperationsSettings', settingsSchema);

const KEY = 'operations';

export async function getOperationsSettings(): Promise<{ staleScanDays: number }> {
  const doc = await OperationsSettings.findOne({ key: KEY }).lean<{ staleScanDays?: number }>();
  return { staleScanDays: doc?.staleScanDays ?? STALE_SCAN_DAYS_DEFAULT };
}

/** Saves the settings; the value before, for the audit entry. */
export async function saveOperationsSettings(input: { staleScanDays: number }) {
  const before = await getOperationsSettings();
  await OperationsSettings.updateOne({ key: KEY }, { $set: input }, { upsert: true });
  return { before, after: { ...before, ...input } };
}
