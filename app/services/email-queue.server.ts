import { enqueueJob, type EnqueueOptions, type JobRecord } from '~/models/job.server';
import { env } from '~/lib/env.server';
import { defineJob } from './jobs.server';

/**
 * Every e-mail the app sends is one job of type `email.send` on the shared queue: the request
 * stores what is to be sent and enqueues it; a worker sends it, retrying after each of
 * MAIL_RETRY_DELAYS when the mail server refuses or does not answer, and after a crash takes the
 * job again once its lease ends. A job that succeeded is never run again.
 *
 * The payload names what to send (`kind`) and which record it belongs to; each kind registers the
 * code that sends it (and records the outcome on its record) with `defineEmailKind`.
 */
export const EMAIL_JOB = 'email.send';

export type EmailJobPayload = { kind: string } & Record<string, unknown>;

export type EmailKind = {
  /** Sends the e-mail; throws the transport's error to have the attempt retried. */
  send: (payload: EmailJobPayload, job: JobRecord) => Promise<void>;
  /** After the last attempt failed: record the error where staff will see it. */
  failed?: (payload: EmailJobPayload, error: string) => Promise<void>;
};

const kinds = new Map<string, EmailKind>();

export function defineEmailKind(kind: string, handler: EmailKind) {
  kinds.set(kind, handler);
}

/** The retry delays (seconds) given to every new e-mail job. */
export function mailRetryDelays(): number[] {
  return [...env.MAIL_RETRY_DELAYS];
}

export async function enqueueEmail(
  payload: EmailJobPayload,
  options: Pick<EnqueueOptions, 'uniqueKey' | 'runAt'> = {},
): Promise<JobRecord> {
  return enqueueJob(EMAIL_JOB, payload, { ...options, retryDelays: mailRetryDelays() });
}

function kindOf(job: JobRecord): EmailKind {
  const kind = kinds.get(String(job.payload.kind));
  if (!kind) throw new Error(`Unknown kind of e-mail: ${String(job.payload.kind)}`);
  return kind;
}

defineJob(EMAIL_JOB, {
  run: async (job) => kindOf(job).send(job.payload as EmailJobPayload, job),
  onFailed: async (job, error) => {
    await kinds.get(String(job.payload.kind))?.failed?.(job.payload as EmailJobPayload, error);
  },
});
