import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob, enqueueJob, getJob, Job, requeueJob } from '~/models/job.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { defineJob, runJob, startJobWorker } from '~/services/jobs.server';

beforeAll(async () => {
  await connectDb();
});

afterAll(async () => {
  await disconnectDb();
});

function until(check: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  return (async () => {
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('timed out');
  })();
}

describe('the job queue', () => {
  it('runs a job once, even with several workers looking at once', async () => {
    const runs: string[] = [];
    defineJob('test.once', {
      run: async (job) => {
        runs.push(String(job.payload.n));
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const workers = [1, 2, 3].map(() => startJobWorker({ pollMs: 20, concurrency: 3 }));
    const jobs = await Promise.all(
      Array.from({ length: 30 }, (_, n) => enqueueJob('test.once', { n })),
    );
    await until(
      async () => (await Job.countDocuments({ type: 'test.once', status: 'succeeded' })) === 30,
    );
    await Promise.all(workers.map((w) => w.stop()));
    expect(runs.sort()).toEqual(jobs.map((j) => String(j.payload.n)).sort());
  });

  it('retries after the given delays, then fails for good and says so once', async () => {
    const failures: string[] = [];
    let attempts = 0;
    defineJob('test.flaky', {
      run: async () => {
        attempts += 1;
        throw new Error(`refused ${attempts}`);
      },
      onFailed: async (_job, error) => {
        failures.push(error);
      },
    });
    const job = await enqueueJob('test.flaky', {}, { retryDelays: [0.05, 0.05] });
    const worker = startJobWorker({ pollMs: 20 });
    await until(async () => (await getJob(job.id))?.status === 'failed');
    await worker.stop();
    const done = await getJob(job.id);
    expect(done).toMatchObject({ attempts: 3, lastError: 'refused 3' });
    expect(failures).toEqual(['refused 3']);

    // Requeued by hand, it runs again from its first attempt.
    expect(await requeueJob(job.id)).toBe(true);
    expect(await getJob(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('succeeds on a later attempt and waits for each retry', async () => {
    let attempts = 0;
    defineJob('test.third-time', {
      run: async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('not yet');
      },
    });
    const job = await enqueueJob('test.third-time', {}, { retryDelays: [0.2, 0.2, 0.2] });
    const worker = startJobWorker({ pollMs: 20 });
    const started = Date.now();
    await until(async () => (await getJob(job.id))?.status === 'succeeded');
    await worker.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(attempts).toBe(3);
  });

  it('takes back a job whose worker died mid-run once its lease ends', async () => {
    const job = await enqueueJob('test.crash', { n: 1 });
    // A worker leases it and is never heard from again.
    const leased = await claimJob(['test.crash'], 'dead-worker', 100);
    expect(leased?.id).toBe(job.id);
    expect(await claimJob(['test.crash'], 'other', 100)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const retaken = await claimJob(['test.crash'], 'other', 60_000);
    expect(retaken).toMatchObject({ id: job.id, attempts: 2 });
    let ran = 0;
    defineJob('test.crash', {
      run: async () => {
        ran += 1;
      },
    });
    await runJob(retaken!, 'other', 60_000);
    expect(await getJob(job.id)).toMatchObject({ status: 'succeeded' });
    // The dead worker's late report changes nothing, and a succeeded job is never taken again.
    await Job.updateOne({ _id: job.id }, { $set: { lockedUntil: new Date(0) } });
    expect(await claimJob(['test.crash'], 'third', 100)).toBeNull();
    expect(ran).toBe(1);
  });

  it('enqueues a job with a unique key once', async () => {
    const first = await enqueueJob('test.unique', { a: 1 }, { uniqueKey: 'event-1:email' });
    const again = await enqueueJob('test.unique', { a: 2 }, { uniqueKey: 'event-1:email' });
    expect(again.id).toBe(first.id);
    expect(await Job.countDocuments({ uniqueKey: 'event-1:email' })).toBe(1);
  });

  it('does not run a job before its time', async () => {
    const job = await enqueueJob('test.later', {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await claimJob(['test.later'], 'w', 1000)).toBeNull();
    expect(await claimJob(['test.later'], 'w', 1000, new Date(Date.now() + 61_000))).toMatchObject({
      id: job.id,
    });
  });
});
