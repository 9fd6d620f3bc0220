import { Schema } from 'mongoose';
import { registeredModel } from '~/lib/records.server';

/**
 * The numbers that replied STOP (and START again): one record per number in E.164, for every
 * parcel, in MongoDB so that every app process reads the same answer.
 */
const smsConsentSchema = new Schema(
  {
    phone: { type: String, required: true, unique: true },
    optedOut: { type: Boolean, required: true },
  },
  { timestamps: true },
);

export const SmsConsent = registeredModel('SmsConsent', smsConsentSchema);

export async function isOptedOut(phone: string): Promise<boolean> {
  return Boolean(await SmsConsent.exists({ phone, optedOut: true }));
}

export async function setOptedOut(phone: string, optedOut: boolean): Promise<void> {
  await SmsConsent.updateOne({ phone }, { $set: { optedOut } }, { upsert: true });
}
