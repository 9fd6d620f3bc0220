import { enqueueJob, type EnqueueOptions, type JobRecord } from '~/models/job.server';
import { env } from '~/lib/env.server';

/**
 * Every text the app sends is one job of type `sms.send` on the shared queue, as every e-mail is
 * an `email.send` one: the notification (channel `sms`) stores what is to be sent, and a worker
 * sends it, retrying after each of SMS_RETRY_DELAYS when the provider refuses or does not answer.
 * The payload names the notification and the recipient's zone, for the quiet hours.
 */
export const SMS_JOB = 'sms.send';

export type TextJobPayload = {
  notificationId: string;
  /** The recipient's zone: no text goes out in its quiet hours. */
  timeZone: string;
  /** An answer to the recipient's own text: it goes at once, whatever the hour. */
  reply?: boolean;
};

/** The retry delays (seconds) given to every new text job. */
export function smsRetryDelays(): number[] {
  return [...env.SMS_RETRY_DELAYS];
}

export function enqueueText(
  payload: TextJobPayload,
  options: Pick<EnqueueOptions, 'uniqueKey' | 'runAt'> = {},
): Promise<JobRecord> {
  return enqueueJob(SMS_JOB, payload, { ...options, retryDelays: smsRetryDelays() });
}
