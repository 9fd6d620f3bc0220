import { enqueueJob, type EnqueueOptions, type JobRecord } from '~/models/job.server';
import { env } from '~/lib/env.server';
import type { JobHandler } from './jobs.server';

/**
 * Every e-mail the app sends is one job of type `email.send` on the shared queue: the change
 * stores what is to be sent and enqueues it; a worker sends it, retrying after each of
 * MAIL_RETRY_DELAYS when the mail server refuses or does not answer, and after a crash takes the
 * job again once its lease ends. A job that succeeded is never run again.
 *
 * The payload names what to send (`kind`) and which record it belongs to; the code that sends
 * each kind (and records the outcome on its record) is listed in job-kinds.server.ts.
 */
export const EMAIL_JOB = 'email.send';

export type EmailJobPayload = { kind: string } & Record<string, unknown>;

export type EmailKind = {
  /** Sends the e-mail; throws the transport's error to have the attempt retried. */
  send: (payload: EmailJobPayload, job: JobRecord) => Promise<void>;
  /** After the last attempt failed: record the error where staff will see it. */
  failed?: (payload: EmailJobPayload, error: string) => Promise<void>;
};

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

/** The handler of `email.send` jobs: each job is run by the code of its kind. */
export function emailJobHandler(kinds: Record<string, EmailKind>): JobHandler {
  const byName = new Map(Object.entries(kinds));
  const kindOf = (job: JobRecord) => {
    const kind = byName.get(String(job.payload.kind));
    if (!kind) throw new Error(`Unknown kind of e-mail: ${String(job.payload.kind)}`);
    return kind;
  };
  return {
    run: async (job) => kindOf(job).send(job.payload as EmailJobPayload, job),
    onFailed: async (job, error) => {
      await byName.get(String(job.payload.kind))?.failed?.(job.payload as EmailJobPayload, error);
    },
  };
}
