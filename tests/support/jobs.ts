import { env } from '~/lib/env.server';
import { claimJob, newWorkerId } from '~/models/job.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { runJob, startJobWorker } from '~/services/jobs.server';
import { startTestSmtpServer } from './smtp';

/**
 * What `check` gives once it gives something (polled every 20 ms): a record a worker has written,
 * a message it has sent. Fails after `ms`.
 */
export async function until<T>(
  check: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

/**
 * One attempt at the due job of `type`, as a worker makes it, and no more: a test sees the
 * outcome of that attempt before any retry. Fails when no job is due.
 */
export async function attemptDueJob(type: string, leaseMs = 60_000): Promise<void> {
  const workerId = newWorkerId();
  const job = await claimJob([type], workerId, leaseMs);
  if (!job) throw new Error(`No ${type} job is due`);
  await runJob(job, workerId, leaseMs);
}

/**
 * A test SMTP server that the queued e-mails go to, with no worker: a test sends each one with
 * `attemptDueJob`. `stop` ends the server and forgets it.
 */
export async function startMailServer() {
  const smtp = await startTestSmtpServer();
  registerJobKinds();
  env.SMTP_URL = smtp.url;
  return {
    smtp,
    async stop() {
      env.SMTP_URL = undefined;
      await smtp.stop();
    },
  };
}

export type MailServer = Awaited<ReturnType<typeof startMailServer>>;

/**
 * A test SMTP server and a job worker that sends the queued e-mails to it, retrying a few
 * hundredths of a second apart; `stop` ends both and forgets the server.
 */
export async function startMailWorker() {
  const mail = await startMailServer();
  env.MAIL_RETRY_DELAYS = [0.05, 0.05, 0.05];
  const worker = startJobWorker({ pollMs: 20 });
  return {
    smtp: mail.smtp,
    worker,
    async stop() {
      await worker.stop();
      await mail.stop();
    },
  };
}

export type MailWorker = Awaited<ReturnType<typeof startMailWorker>>;
