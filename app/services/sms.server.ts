import type { LeanParcel } from '~/models/parcel.server';
import mongoose from 'mongoose';
import { composeText, replyText, type TextFacts } from '~/emails/texts.server';
import type { PlaceholderParcel } from '~/emails/templates.server';
import { jobExists, type JobRecord } from '~/models/job.server';
import {
  findNewestTextTo,
  insertNotification,
  recordNotificationHeld,
  removeNotification,
  type SerializedNotification,
} from '~/models/notification.server';
import { textRuleOn } from '~/models/notification-settings.server';
import { getParcelForTemplate } from '~/models/parcel-reads.server';
import { findParcelForRecipient } from '~/models/parcel-tracking-numbers.server';
import { isOptedOut, setOptedOut } from '~/models/sms-consent.server';
import { recipientTimeZone } from '~/lib/address-time-zone.server';
import { env } from '~/lib/env.server';
import { e164, mobilePhone } from '~/lib/phone.server';
import type { NotificationType } from '~/schemas/notification';
import type { ParcelStatus } from '~/schemas/constants';
import { TEXT_EVENT_LABELS, textLanguage, type TextEvent } from '~/schemas/texts';
import { quietHoursEnd } from '~/utils/quiet-hours';
import { applyDeliveryPreferences, textReplyActor } from './delivery-preferences.server';
import type { JobHandler } from './jobs.server';
import { textTemplate } from './notification-templates.server';
import {
  enqueueNotificationSend,
  notificationEmailKind,
  sendNotificationAttempt,
  whatHappened,
  type StatusChangeRef,
} from './notifications.server';
import { deliverText, smsSender } from './sms-sender.server';
import { smsRetryDelays, type TextJobPayload } from './sms-queue.server';

/**
 * Text messages to a parcel's recipient, beside its e-mails: the automatic texts (out for
 * delivery, a failed attempt, delivered, the day before), each a notification on the `sms`
 * channel sent by an `sms.send` job; the recipient's quiet hours; and what the recipient texts
 * back (STOP, START, and 1 or 2 to a text that offers them), received on /api/sms/inbound.
 */

const STATUS_TEXTS: Partial<Record<ParcelStatus, TextEvent>> = {
  'Out for Delivery': 'outForDelivery',
  Failed: 'failed',
  Delivered: 'delivered',
};

/** Texts that offer choices to reply with. */
const WITH_CHOICES: readonly TextEvent[] = ['outForDelivery', 'failed'];

/** The notification type a text is listed under beside the e-mails. */
const TEXT_TYPES: Record<TextEvent, NotificationType> = {
  outForDelivery: 'Status Update',
  failed: 'Status Update',
  delivered: 'Delivery Confirmation',
  dayBefore: 'Delivery Reminder',
};

/** The recipient's language, when the parcel carries one; English otherwise. */
function recipientLanguage(parcel: { recipient?: unknown }) {
  return textLanguage((parcel.recipient as { language?: unknown } | null | undefined)?.language);
}

/** When a text to `timeZone` may go: now, or when its quiet hours end. */
function sendableAt(timeZone: string, now = new Date()): Date {
  return quietHoursEnd(now, timeZone, env.SMS_QUIET_HOURS) ?? now;
}

/**
 * Stores a text to `to` as a pending notification and queues it once under `key`; null when the
 * key was used already.
 */
async function queueText({
  parcel,
  to,
  body,
  key,
  type,
  title,
  timeZone,
  replyChoices = false,
  reply = false,
  eventId,
}: {
  parcel: { _id: unknown; trackingNumber: string };
  to: string;
  body: string;
  key: string;
  type: NotificationType;
  title: string;
  timeZone: string;
  replyChoices?: boolean;
  reply?: boolean;
  eventId?: string;
}): Promise<SerializedNotification | null> {
  if (await jobExists(key)) return null;
  const id = String(new mongoose.Types.ObjectId());
  const runAt = reply ? new Date() : sendableAt(timeZone);
  await insertNotification({
    id,
    channel: 'sms',
    type,
    recipient: to,
    title,
    message: body,
    trackingNumber: parcel.trackingNumber,
    parcelId: String(parcel._id),
    automatic: true,
    jobKey: key,
    ...(replyChoices ? { replyChoices } : {}),
    ...(eventId ? { eventId } : {}),
  });
  if (runAt > new Date()) await recordNotificationHeld(id, runAt);
  const queued = await enqueueNotificationSend(id, key, { timeZone, reply, runAt });
  if (!queued) await removeNotification(id);
  return queued;
}

/**
 * The automatic text of `event` to the parcel's recipient, once under `key`: when the rule is on
 * (the parcel's account's, where it set one),
 * the recipient's phone is a mobile that did not reply STOP, and the key is new. Null otherwise.
 */
export async function queueAutomaticText({
  parcelId,
  parcel: known,
  event,
  key,
  facts,
  eventId,
}: {
  parcelId: string;
  /** The parcel as a write just left it, when the caller has it: not read again. */
  parcel?: LeanParcel;
  event: TextEvent;
  key: string;
  facts?: TextFacts;
  eventId?: string;
}): Promise<SerializedNotification | null> {
  const parcel = known ?? (await getParcelForTemplate({ id: parcelId }));
  // The parcel's account's choice for its parcels, else the company's.
  if (!parcel || !(await textRuleOn(event, parcel.accountId ? String(parcel.accountId) : null)))
    return null;
  const { phoneE164 } = mobilePhone(parcel.recipient?.phone, parcel.recipient?.country);
  if (!phoneE164 || (await isOptedOut(phoneE164))) return null;
  const language = recipientLanguage(parcel);
  const body = composeText(
    await textTemplate(event, language),
    language,
    parcel as PlaceholderParcel,
    facts,
  );
  return queueText({
    parcel,
    to: phoneE164,
    body,
    key,
    type: TEXT_TYPES[event],
    title: `Text: ${TEXT_EVENT_LABELS[event]}`,
    timeZone: recipientTimeZone(parcel),
    replyChoices: WITH_CHOICES.includes(event),
    eventId,
  });
}

/** The text of a status change, when the status has one: once per event. */
export async function queueStatusText({
  parcelId,
  eventId,
  status,
  parcel,
}: StatusChangeRef & { parcel?: LeanParcel }): Promise<SerializedNotification | null> {
  const event = STATUS_TEXTS[status];
  if (!event) return null;
  const happened = await whatHappened(status, parcelId, eventId);
  return queueAutomaticText({
    parcelId,
    parcel,
    event,
    key: `sms:status:${eventId}`,
    eventId,
    facts: happened
      ? {
          reason: happened.kind === 'failed' ? happened.reason : null,
          nextAttemptDate: happened.kind === 'failed' ? happened.nextAttemptDate : null,
          receivedBy: happened.kind === 'delivered' ? happened.receivedBy : null,
        }
      : {},
  });
}

/** The day-before text of a parcel and day: once per parcel and day. */
export function queueDayBeforeText(parcelId: string, day: string) {
  return queueAutomaticText({
    parcelId,
    event: 'dayBefore',
    key: `sms:day-before:${parcelId}:${day}`,
  });
}

/**
 * One attempt at a text, run by the queue's worker: held until the recipient's quiet hours end
 * (the notification says until when), never sent to a number that replied STOP (an answer to
 * their own text excepted), and otherwise sent as an e-mail is (sendNotificationAttempt): once,
 * its refusals recorded and retried.
 */
async function sendTextAttempt(job: JobRecord): Promise<void | { postponedUntil: Date }> {
  const { notificationId: id, timeZone, reply } = job.payload as TextJobPayload;
  if (!reply) {
    const until = quietHoursEnd(new Date(), timeZone || env.COMPANY_TIMEZONE, env.SMS_QUIET_HOURS);
    if (until) {
      await recordNotificationHeld(id, until);
      return { postponedUntil: until };
    }
  }
  return sendNotificationAttempt(
    id,
    job,
    async (doc) => {
      if (!reply && (await isOptedOut(doc.recipient)))
        return { ok: false, error: 'Not sent: the number replied STOP' };
      return deliverText({ to: doc.recipient, body: doc.message, key: `notification-${id}` });
    },
    smsRetryDelays(),
  );
}

/** The kind of job that sends a text (registered in job-kinds.server.ts). */
export const textJob: JobHandler = {
  run: sendTextAttempt,
  onFailed: async (job, error) => notificationEmailKind.failed?.(job.payload as never, error),
};

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT']);
const START_WORDS = new Set(['START', 'YES', 'UNSTOP', 'SUBSCRIBE']);

export type InboundText = { from: string; to?: string; body: string };
export type InboundOutcome = 'stopped' | 'started' | 'neighbour' | 'depot' | 'closed' | 'ignored';

/**
 * What a text received from a recipient does. STOP (and its synonyms) opts the number out of
 * every text, START opts it back in. "1" or "2" answers the newest text that offered them to that
 * number: the parcel is left with a neighbour, or held at the depot, through the same service as
 * the tracking page's form, and the recipient is told so. From a number no such text went to, or
 * about a parcel already delivered, nothing changes.
 */
export async function receiveText(text: InboundText): Promise<InboundOutcome> {
  const from = e164(text.from);
  if (!from) return 'ignored';
  const word = text.body
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  if (STOP_WORDS.has(word) || START_WORDS.has(word)) {
    const stop = STOP_WORDS.has(word);
    await setOptedOut(from, stop);
    const outcome = stop ? 'stopped' : 'started';
    // Twilio answers these words itself, for every number it sends from.
    const last = smsSender().provider === 'twilio' ? null : await findNewestTextTo(from);
    if (last) await queueReply(from, outcome, { _id: last.parcelId, ...last });
    return outcome;
  }
  if (word !== '1' && word !== '2') return 'ignored';
  const awaiting = await findNewestTextTo(from, { replyChoices: true });
  const full = awaiting && (await findParcelForRecipient(awaiting.trackingNumber));
  if (!full) return 'ignored';
  const kept = full.deliveryPreferences;
  const outcome = await applyDeliveryPreferences(
    full,
    {
      instructions: kept?.instructions ?? undefined,
      requestedDate: kept?.requestedDate ?? undefined,
      ...(word === '1' ? { safePlace: 'neighbour' as const } : { holdAtDepot: true }),
    },
    textReplyActor(from),
  );
  const answer = outcome.kind === 'saved' ? (word === '1' ? 'neighbour' : 'depot') : 'closed';
  await queueReply(from, answer, full);
  return outcome.kind === 'saved' || outcome.kind === 'closed' ? answer : 'ignored';
}

/** The answer to a recipient's text: at once, whatever the hour, and to a number that said STOP. */
async function queueReply(
  to: string,
  outcome: 'stopped' | 'started' | 'neighbour' | 'depot' | 'closed',
  parcel: { _id: unknown; trackingNumber: string },
) {
  const body = replyText(outcome, parcel.trackingNumber);
  await queueText({
    parcel,
    to,
    body,
    key: `sms:reply:${String(parcel._id)}:${Date.now()}`,
    type: 'Custom',
    title: 'Text: Reply to the recipient',
    timeZone: env.COMPANY_TIMEZONE,
    reply: true,
  });
}
