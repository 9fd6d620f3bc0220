import { Schema } from 'mongoose';
import { STALE_SCAN_DAYS_DEFAULT } from '~/schemas/depot';
import { registeredModel } from '~/lib/records.server';

/** How deliveries are watched and recorded: one document, holding what admins changed. */
const settingsSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    staleScanDays: { type: Number, default: STALE_SCAN_DAYS_DEFAULT },
    // Whether a scan that names who received the parcel may record it Delivered (a proof of
    // delivery without photo or signature); otherwise only the proof-of-delivery form does.
    deliveredByScan: { type: Boolean, default: false },
  },
  { timestamps: true },
);

export const OperationsSettings = registeredModel('OperationsSettings', settingsSchema);

const KEY = 'operations';

export type OperationsSettingsValues = { staleScanDays: number; deliveredByScan: boolean };

export async function getOperationsSettings(): Promise<OperationsSettingsValues> {
  const doc = await OperationsSettings.findOne({ key: KEY }).lean<
    Partial<OperationsSettingsValues>
  >();
  return {
    staleScanDays: doc?.staleScanDays ?? STALE_SCAN_DAYS_DEFAULT,
    deliveredByScan: doc?.deliveredByScan ?? false,
  };
}

/** Saves the settings given; the values before, for the audit entry. */
export async function saveOperationsSettings(input: Partial<OperationsSettingsValues>) {
  const before = await getOperationsSettings();
  await OperationsSettings.updateOne({ key: KEY }, { $set: input }, { upsert: true });
  return { before, after: { ...before, ...input } };
}
