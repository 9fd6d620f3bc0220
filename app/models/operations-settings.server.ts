import { Schema } from 'mongoose';
import { STALE_SCAN_DAYS_DEFAULT } from '~/schemas/depot';
import { registeredModel } from '~/lib/records.server';
import { DEFAULT_PICKUP_CUTOFF } from '~/schemas/pickup';

/** How deliveries are watched and recorded: one document, holding what admins changed. */
const settingsSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    staleScanDays: { type: Number, default: STALE_SCAN_DAYS_DEFAULT },
    // Whether a scan that names who received the parcel may record it Delivered (a proof of
    // delivery without photo or signature); otherwise only the proof-of-delivery form does.
    deliveredByScan: { type: Boolean, default: false },
    // Until when (HH:MM, company time) a pickup may be asked for or cancelled for the same day.
    pickupCutoff: { type: String, default: DEFAULT_PICKUP_CUTOFF },
  },
  { timestamps: true },
);

export const OperationsSettings = registeredModel('OperationsSettings', settingsSchema);

const KEY = 'operations';

export type OperationsSettingsValues = {
  staleScanDays: number;
  deliveredByScan: boolean;
  pickupCutoff: string;
};

export async function getOperationsSettings(): Promise<OperationsSettingsValues> {
  const doc = await OperationsSettings.findOne({ key: KEY }).lean<
    Partial<OperationsSettingsValues>
  >();
  return {
    staleScanDays: doc?.staleScanDays ?? STALE_SCAN_DAYS_DEFAULT,
    deliveredByScan: doc?.deliveredByScan ?? false,
    pickupCutoff: doc?.pickupCutoff ?? DEFAULT_PICKUP_CUTOFF,
  };
}

/** Saves the settings given; the values before, for the audit entry. */
export async function saveOperationsSettings(input: Partial<OperationsSettingsValues>) {
  const before = await getOperationsSettings();
  await OperationsSettings.updateOne({ key: KEY }, { $set: input }, { upsert: true });
  return { before, after: { ...before, ...input } };
}
