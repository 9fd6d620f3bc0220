import { Schema } from 'mongoose';
import { registeredModel } from '~/lib/records.server';
import { TEXT_EVENTS, TEXT_LANGUAGES, type TextEvent, type TextLanguage } from '~/schemas/texts';

/** The automatic texts' templates an admin changed, by event and language (others: the defaults). */
const smsTemplateSchema = new Schema(
  {
    event: { type: String, enum: TEXT_EVENTS, required: true },
    language: { type: String, enum: TEXT_LANGUAGES, required: true },
    body: { type: String, required: true },
  },
  { timestamps: true },
);
smsTemplateSchema.index({ event: 1, language: 1 }, { unique: true });

export const SmsTemplate = registeredModel('SmsTemplate', smsTemplateSchema);

export async function getSmsTemplate(event: TextEvent, language: TextLanguage) {
  const doc = await SmsTemplate.findOne({ event, language }, { body: 1 }).lean<{ body: string }>();
  return doc?.body ?? null;
}

export async function saveSmsTemplate(event: TextEvent, language: TextLanguage, body: string) {
  await SmsTemplate.updateOne({ event, language }, { $set: { body } }, { upsert: true });
}

export async function deleteSmsTemplate(event: TextEvent, language: TextLanguage) {
  await SmsTemplate.deleteOne({ event, language });
}
