import crypto from 'node:crypto';
import os from 'node:os';
import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import type { QueueFigures } from '~/lib/metrics.server';
import { registeredModel, serializedById } from '~/lib/records.server';

/**
 * The durable background queue: e-mails and webhook deliveries are jobs in MongoDB, run by a
 * worker in every app process. A worker takes a job with one `findOneAndUpdate` that leases it
 * (`lockedUntil`); a process that dies mid-job leaves the lease to expire and another worker (or
 * the same one after a restart) takes the job again. A job that succeeded is never run again.
 */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const jobSchema = new Schema(
  {
    type: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, default: {} },
    status: { type: String, enum: JOB_STATUSES, default: 'queued' },
    runAt: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    // Retry delays in seconds after attempts 1, 2, …; the job fails after attempts = delays + 1.
    retryDelays: { type: [Number], default: [] },
    lockedUntil: { type: Date, default: null },
    lockedBy: { type: String, default: null },
    lastError: { type: String, default: null },
    finishedAt: { type: Date, default: null },
    // Makes enqueue idempotent: a second job with the same key is not created.
    uniqueKey: { type: String },
  },
  { timestamps: true, minimize: false },
);
jobSchema.index({ status: 1, runAt: 1 });
jobSchema.index({ uniqueKey: 1 }, { unique: true, sparse: true });
// Finished jobs are kept for a week, for the record.
jobSchema.index({ finishedAt: 1 }, { expireAfterSeconds: 7 * 24 * 3600 });

type JobSchema = InferSchemaType<typeof jobSchema>;
export const Job = registeredModel('Job', jobSchema);

export type JobRecord = {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  status: JobStatus;
  attempts: number;
  runAt: Date;
  lastError: string | null;
  /** True when this attempt is the job's last: a failure now fails the job. */
  lastAttempt: boolean;
};

type LeanJob = JobSchema & { _id: mongoose.Types.ObjectId };

function toRecord(doc: LeanJob): JobRecord {
  return {
    id: String(doc._id),
    type: doc.type,
    payload: (doc.payload ?? {}) as Record<string, unknown>,
    status: doc.status as JobStatus,
    attempts: doc.attempts,
    runAt: doc.runAt,
    lastError: doc.lastError ?? null,
    lastAttempt: doc.attempts > (doc.retryDelays?.length ?? 0),
  };
}

export type EnqueueOptions = {
  /** When to run first (default: now). */
  runAt?: Date;
  /** Seconds to wait before each retry; the number of retries is its length. */
  retryDelays?: number[];
  /** A job with this key is created once; later enqueues with it return the first job. */
  uniqueKey?: string;
};

export async function enqueueJob(
  type: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<JobRecord> {
  const doc = {
    type,
    payload,
    status: 'queued' as const,
    runAt: options.runAt ?? new Date(),
    retryDelays: options.retryDelays ?? [],
    ...(options.uniqueKey ? { uniqueKey: options.uniqueKey } : {}),
  };
  let job: LeanJob;
  try {
    job = (await Job.create(doc)).toObject() as LeanJob;
  } catch (error) {
    if (!isDuplicateKey(error) || !options.uniqueKey) throw error;
    const existing = await Job.findOne({ uniqueKey: options.uniqueKey }).lean<LeanJob>();
    if (!existing) throw error;
    job = existing;
  }
  jobEvents.emit();
  return toRecord(job);
}

/**
 * Leases the next due job of the given types to `workerId` for `leaseMs`: a queued job whose
 * time has come, or a running one whose worker stopped renewing its lease (it crashed).
 */
export async function claimJob(
  types: string[],
  workerId: string,
  leaseMs: number,
  now = new Date(),
): Promise<JobRecord | null> {
  const doc = await Job.findOneAndUpdate(
    {
      type: { $in: types },
      $or: [
        { status: 'queued', runAt: { $lte: now } },
        { status: 'running', lockedUntil: { $lt: now } },
      ],
    },
    {
      $set: {
        status: 'running',
        lockedBy: workerId,
        lockedUntil: new Date(now.getTime() + leaseMs),
      },
      $inc: { attempts: 1 },
    },
    { sort: { runAt: 1 }, returnDocument: 'after' },
  ).lean<LeanJob>();
  return doc ? toRecord(doc) : null;
}

/** Whether a job was ever enqueued with this key (and is still kept). */
export async function jobExists(uniqueKey: string): Promise<boolean> {
  return Boolean(await Job.exists({ uniqueKey }));
}

/** Marks a leased job done. False if the lease was lost (another worker took the job). */
export async function completeJob(id: string, workerId: string): Promise<boolean> {
  const result = await Job.updateOne(
    { _id: id, status: 'running', lockedBy: workerId },
    {
      $set: { status: 'succeeded', finishedAt: new Date(), lockedUntil: null, lastError: null },
    },
  );
  return result.modifiedCount === 1;
}

/**
 * Records a failed attempt: the job waits for its next retry, or fails for good after its last.
 * Returns the job's new status, or null if the lease was lost.
 */
export async function failJobAttempt(
  id: string,
  workerId: string,
  error: string,
  now = new Date(),
): Promise<'queued' | 'failed' | null> {
  const job = await Job.findOne({ _id: id, status: 'running', lockedBy: workerId }).lean<LeanJob>();
  if (!job) return null;
  const delays = job.retryDelays ?? [];
  const retry = job.attempts <= delays.length;
  const update = retry
    ? {
        status: 'queued',
        runAt: new Date(now.getTime() + (delays[job.attempts - 1] ?? 0) * 1000),
        lockedUntil: null,
        lockedBy: null,
        lastError: error,
      }
    : { status: 'failed', finishedAt: now, lockedUntil: null, lastError: error };
  const result = await Job.updateOne(
    { _id: id, status: 'running', lockedBy: workerId },
    { $set: update },
  );
  if (result.modifiedCount !== 1) return null;
  return retry ? 'queued' : 'failed';
}

/**
 * A leased job that is not to run yet (a text in the recipient's quiet hours): back in the queue
 * until `runAt`, the attempt not counted. False if the lease was lost.
 */
export async function postponeJob(id: string, workerId: string, runAt: Date): Promise<boolean> {
  const result = await Job.updateOne(
    { _id: id, status: 'running', lockedBy: workerId },
    {
      $set: { status: 'queued', runAt, lockedUntil: null, lockedBy: null },
      $inc: { attempts: -1 },
    },
  );
  return result.modifiedCount === 1;
}

/** Puts a finished (or waiting) job back in the queue to run now, with its attempts reset. */
export async function requeueJob(id: string, retryDelays?: number[]): Promise<boolean> {
  const result = await Job.updateOne(
    { _id: id, status: { $in: ['failed', 'queued'] } },
    {
      $set: {
        status: 'queued',
        runAt: new Date(),
        attempts: 0,
        lockedBy: null,
        lockedUntil: null,
        finishedAt: null,
        ...(retryDelays ? { retryDelays } : {}),
      },
    },
  );
  if (result.modifiedCount === 1) jobEvents.emit();
  return result.modifiedCount === 1;
}

/**
 * The queue's figures for /metrics: jobs of each type that are due (waiting for a worker),
 * scheduled for later or running, and when the oldest due one was due.
 */
export async function queueFigures(now = new Date()): Promise<QueueFigures> {
  const groups = await Job.aggregate<{
    _id: { kind: string; status: JobStatus; due: boolean };
    count: number;
    oldest: Date;
  }>([
    { $match: { status: { $in: ['queued', 'running'] } } },
    {
      $group: {
        _id: { kind: '$type', status: '$status', due: { $lte: ['$runAt', now] } },
        count: { $sum: 1 },
        oldest: { $min: '$runAt' },
      },
    },
  ]);
  const figures: QueueFigures = [];
  for (const { _id, count, oldest } of groups) {
    const state = _id.status === 'running' ? 'running' : _id.due ? 'due' : 'scheduled';
    const same = figures.find((f) => f.kind === _id.kind && f.state === state);
    if (same) same.count += count;
    else
      figures.push({
        kind: _id.kind,
        state,
        count,
        ...(state === 'due' ? { oldestRunAt: oldest } : {}),
      });
  }
  return figures;
}

export async function getJob(id: string): Promise<JobRecord | null> {
  return serializedById(id, (id) => Job.findById(id).lean<LeanJob>(), toRecord);
}

/** Keeps a running job's lease while its worker works on it. */
export async function renewLease(id: string, workerId: string, leaseMs: number) {
  await Job.updateOne(
    { _id: id, status: 'running', lockedBy: workerId },
    { $set: { lockedUntil: new Date(Date.now() + leaseMs) } },
  );
}

/** Wakes this process's worker when a job is enqueued here, so it need not wait for a poll. */
export const jobEvents = {
  listeners: new Set<() => void>(),
  emit() {
    for (const listener of this.listeners) listener();
  },
};

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Called when a process starts its worker: the leases held by workers of this machine whose
 * process is gone (the app was killed or crashed and restarted) end now, so their jobs are taken
 * again at once instead of when the lease would have run out. Workers elsewhere are left to their
 * leases. Returns how many jobs were released.
 */
export async function releaseLeasesOfDeadWorkers(selfId: string): Promise<number> {
  const host = os.hostname();
  const prefix = `${host}:`;
  const running = await Job.find(
    { status: 'running', lockedBy: { $ne: selfId } },
    { lockedBy: 1 },
  ).lean<Array<{ _id: unknown; lockedBy?: string | null }>>();
  let released = 0;
  for (const job of running) {
    const owner = job.lockedBy ?? '';
    if (!owner.startsWith(prefix)) continue;
    const pid = Number(owner.slice(prefix.length).split(':')[0]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    // The same process id under another worker id is an earlier run of this process's number.
    if (pid !== process.pid && processAlive(pid)) continue;
    const result = await Job.updateOne(
      { _id: job._id, status: 'running', lockedBy: owner },
      { $set: { lockedUntil: new Date(0) } },
    );
    released += result.modifiedCount;
  }
  if (released > 0) jobEvents.emit();
  return released;
}
