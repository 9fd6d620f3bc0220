import { claimJob, newWorkerId } from '~/models/job.server';
import { runJob } from '~/services/jobs.server';

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
