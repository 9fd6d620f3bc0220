import {
  claimJob,
  completeJob,
  failJobAttempt,
  jobEvents,
  newWorkerId,
  postponeJob,
  renewLease,
  type JobRecord,
} from '~/models/job.server';
import { env } from '~/lib/env.server';
import { timeJob } from '~/lib/metrics.server';

/**
 * The worker of the durable queue (models/job.server.ts): it leases due jobs and runs them
 * through the handler of their kind. The kinds are registered in one module,
 * job-kinds.server.ts, at boot.
 *
 * Why our own queue and not agenda: agenda 6.2 with @agendajs/mongo-backend 4.0 was tried on the
 * embedded engine (a job run; a job retried with a constant backoff until it succeeded; one job
 * per unique key; a job whose worker died taken again once its lock expired). It works there, so
 * the engine is no obstacle. It does not replace this module because it would bring no behaviour
 * the app lacks and would need as much code around its documents as this module has: records
 * keep their job's id (a notification, a webhook delivery) and Retry and Redeliver put that job
 * back by id; staff see a job's attempts, next try and last error; a process restarted on the
 * same machine takes back at once the jobs its dead predecessor leased, where agenda waits for
 * the lock to expire.
 * The queue stays small: a lease taken with one findOneAndUpdate and renewed while the job runs,
 * retries after delays stored on the job, and an enqueue made idempotent by a unique key.
 */

export type JobHandler = {
  /**
   * Does the work; throwing (or rejecting) is a failed attempt that is retried. Answering
   * `{ postponedUntil }` puts the job back until then, the attempt not counted.
   */
  run: (job: JobRecord) => Promise<void | { postponedUntil: Date }>;
  /** Called once when the last attempt failed. */
  onFailed?: (job: JobRecord, error: string) => Promise<void>;
};

const handlers = new Map<string, JobHandler>();

/** Registers what runs jobs of `type` (job-kinds.server.ts does, for every kind the app has). */
export function defineJob(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

export function jobHandler(type: string): JobHandler | undefined {
  return handlers.get(type);
}

function errorText(error: unknown): string {
  const e = error as { message?: string } | null;
  return (e?.message || String(error)).slice(0, 1000);
}

/**
 * Runs one leased job through its handler and records the outcome. The lease is renewed while
 * the handler runs, so a slow job is not taken by another worker.
 */
export async function runJob(job: JobRecord, workerId: string, leaseMs: number) {
  const handler = handlers.get(job.type);
  if (!handler) {
    await failJobAttempt(job.id, workerId, `No handler for jobs of type ${job.type}`);
    return;
  }
  const renew = setInterval(
    () => {
      renewLease(job.id, workerId, leaseMs).catch(() => undefined);
    },
    Math.max(1000, leaseMs / 3),
  );
  renew.unref();
  const timed = timeJob(job.type);
  try {
    const outcome = await handler.run(job);
    clearInterval(renew);
    if (outcome?.postponedUntil) {
      await postponeJob(job.id, workerId, outcome.postponedUntil);
      timed('postponed');
      return;
    }
    await completeJob(job.id, workerId);
    timed('succeeded');
  } catch (error) {
    clearInterval(renew);
    const text = errorText(error);
    const status = await failJobAttempt(job.id, workerId, text);
    timed(status === 'failed' ? 'failed' : 'retry');
    if (status === 'failed') await handler.onFailed?.(job, text);
  }
}

export type JobWorker = { id: string; stop: () => Promise<void>; idle: () => Promise<void> };

/**
 * Starts this process's worker: it takes due jobs of every registered type, up to
 * `concurrency` at a time, and looks again every `pollMs` or as soon as a job is enqueued here.
 */
export function startJobWorker({
  pollMs = env.JOBS_POLL_MS,
  concurrency = env.JOBS_CONCURRENCY,
  leaseMs = 60_000,
  id = newWorkerId(),
}: {
  pollMs?: number;
  concurrency?: number;
  leaseMs?: number;
  /** This worker's id (default: host, process id and a random part). */
  id?: string;
} = {}): JobWorker {
  const running = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let filling = false;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = () => {
    if (running.size > 0 || filling) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const fill = async () => {
    if (filling || stopped) return;
    filling = true;
    try {
      while (!stopped && running.size < concurrency && handlers.size > 0) {
        const job = await claimJob([...handlers.keys()], id, leaseMs);
        if (!job) break;
        const task: Promise<void> = runJob(job, id, leaseMs)
          .catch((error) => console.error('Background job failed to record its outcome', error))
          .finally(() => {
            running.delete(task);
            void fill();
            settleIdle();
          });
        running.add(task);
      }
    } catch (error) {
      // The database is briefly unreachable: the next poll tries again.
      if (!stopped) console.error('Background jobs: cannot reach the queue', errorText(error));
    } finally {
      filling = false;
      settleIdle();
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      await fill();
      schedule();
    }, pollMs);
    timer.unref();
  };

  const wake = () => void fill();
  jobEvents.listeners.add(wake);
  void fill();
  schedule();

  return {
    id,
    /** Resolves when nothing is running and nothing due was found on the last look. */
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        void fill().then(settleIdle);
      }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      jobEvents.listeners.delete(wake);
      await Promise.allSettled([...running]);
    },
  };
}
