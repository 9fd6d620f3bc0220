import type { MongoClient } from 'mongodb';
import { Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * What the app counts for `GET /metrics` (prom-client, in Prometheus's text format), beside the
 * requests and the process that server/metrics.js measures: messages sent and failed, webhook
 * deliveries, sign-in failures and lockouts, background jobs run, the job queue, and the
 * database's round trips. Each is one call where the thing happens (`countMessage` in the mail
 * transport, `timeJob` in the job runner, …).
 *
 * Every label is a closed set: a channel, an outcome, a job's kind, a database command's name.
 * Never a tracking number, an address, a user or anything else a request carries, so the series
 * stay few whatever the traffic.
 *
 * Counters are per process; with several app processes the primary sums them (server/metrics.js).
 * The queue's figures are read from MongoDB when scraped, so they are the whole queue's, whichever
 * process or machine answers. One set per process however many copies of this module are loaded
 * (a test loads the build's and the source's): each metric is registered once, by name.
 */
function metric<T>(name: string, make: (name: string) => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make(name);
}

/** The channels a message goes out on: texts will count under `sms` when the app sends them. */
export type MessageChannel = 'email' | 'sms';

const messages = metric(
  'courier_messages_total',
  (name) =>
    new Counter({
      name,
      help: 'Messages handed to their provider (channel: email, sms), by outcome: sent, or failed (refused or unanswered; the job tries again)',
      labelNames: ['channel', 'outcome'] as const,
    }),
);
for (const outcome of ['sent', 'failed']) messages.inc({ channel: 'email', outcome }, 0);

/** One message handed to its provider: taken (`sent`), or refused or unanswered (`failed`). */
export function countMessage(channel: MessageChannel, outcome: 'sent' | 'failed') {
  messages.inc({ channel, outcome });
}

const webhookDeliveries = metric(
  'courier_webhook_deliveries_total',
  (name) =>
    new Counter({
      name,
      help: 'Webhook delivery attempts, by outcome: succeeded (a 2xx), retrying (another attempt is planned) or failed (the last attempt)',
      labelNames: ['outcome'] as const,
    }),
);
for (const outcome of ['succeeded', 'retrying', 'failed']) webhookDeliveries.inc({ outcome }, 0);

export function countWebhookDelivery(outcome: 'succeeded' | 'retrying' | 'failed') {
  webhookDeliveries.inc({ outcome });
}

const loginFailures = metric(
  'courier_login_failures_total',
  (name) =>
    new Counter({ name, help: 'Sign-ins refused for a wrong username or password (form and API)' }),
);
const loginLockouts = metric(
  'courier_login_lockouts_total',
  (name) =>
    new Counter({
      name,
      help: 'Sign-ins refused unchecked because their username or address has failed too often (LOGIN_MAX_FAILURES)',
    }),
);

/** A sign-in refused: wrong credentials, or locked out after too many of them. */
export function countLoginFailure(kind: 'invalid' | 'locked') {
  (kind === 'locked' ? loginLockouts : loginFailures).inc();
}

const jobRuns = metric(
  'courier_job_run_duration_seconds',
  (name) =>
    new Histogram({
      name,
      help: 'Background job attempts and how long they took, by kind and outcome: succeeded, retry (it will be tried again) or failed (its last attempt)',
      labelNames: ['kind', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

/** Starts timing one attempt at a job; call what it returns with the attempt's outcome. */
export function timeJob(kind: string) {
  const end = jobRuns.startTimer({ kind });
  return (outcome: 'succeeded' | 'retry' | 'failed' | 'postponed') => void end({ outcome });
}

/** The queue as its reader reports it: jobs of a kind in a state, and the oldest due one's time. */
export type QueueFigures = Array<{
  kind: string;
  state: 'due' | 'scheduled' | 'running';
  count: number;
  oldestRunAt?: Date;
}>;

type QueueReader = { read: () => Promise<QueueFigures>; kinds: string[] };
type QueueState = {
  reader?: QueueReader;
  latest?: { at: number; figures: Promise<QueueFigures | null> };
};
const queue: QueueState = ((
  globalThis as typeof globalThis & { __courierQueue?: QueueState }
).__courierQueue ??= {});

/** How long a scrape waits for the queue's figures before it answers without them. */
const QUEUE_READ_MS = 2000;

async function readQueue(reader: QueueReader): Promise<QueueFigures | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUEUE_READ_MS))),
    ]);
  } catch {
    // The database is down: the scrape still answers, without the queue's series.
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The queue's figures for this scrape: one read serves both gauges. */
function queueNow(): Promise<QueueFigures | null> {
  const { reader } = queue;
  if (!reader) return Promise.resolve(null);
  if (!queue.latest || Date.now() - queue.latest.at > 1000)
    queue.latest = { at: Date.now(), figures: readQueue(reader) };
  return queue.latest.figures;
}

/** Every reported kind, with zeros for those with nothing in the queue. */
const reportedKinds = (figures: QueueFigures) =>
  new Set([...(queue.reader?.kinds ?? []), ...figures.map((f) => f.kind)]);

const STATES = ['due', 'scheduled', 'running'] as const;
metric(
  'courier_job_queue_depth',
  (name) =>
    new Gauge({
      name,
      help: 'Jobs in the queue by kind and state: due (waiting for a worker), scheduled (planned for later, retries included) or running',
      labelNames: ['kind', 'state'] as const,
      // Every process reads the same queue: its figures are taken once, not added up.
      aggregator: 'max',
      async collect() {
        this.reset();
        const figures = await queueNow();
        if (!figures) return;
        for (const kind of reportedKinds(figures))
          for (const state of STATES) this.set({ kind, state }, 0);
        for (const { kind, state, count } of figures) this.set({ kind, state }, count);
      },
    }),
);
metric(
  'courier_job_queue_oldest_age_seconds',
  (name) =>
    new Gauge({
      name,
      help: 'How long the oldest due job of each kind has waited for a worker (0 when none waits)',
      labelNames: ['kind'] as const,
      aggregator: 'max',
      async collect() {
        this.reset();
        const figures = await queueNow();
        if (!figures) return;
        const now = Date.now();
        for (const kind of reportedKinds(figures)) this.set({ kind }, 0);
        for (const { kind, state, oldestRunAt } of figures)
          if (state === 'due' && oldestRunAt)
            this.set({ kind }, Math.max(0, (now - oldestRunAt.getTime()) / 1000));
      },
    }),
);

/** Where the queue's figures come from (the job model), and the kinds always reported. */
export function observeJobQueue(read: () => Promise<QueueFigures>, kinds: string[]) {
  queue.reader = { read, kinds };
}

const dbCommands = metric(
  'courier_db_command_duration_seconds',
  (name) =>
    new Histogram({
      name,
      help: "Round trips to the database and how long each took, by the driver's command name",
      labelNames: ['command'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    }),
);
const dbFailures = metric(
  'courier_db_command_failures_total',
  (name) =>
    new Counter({
      name,
      help: 'Database commands that failed (the server refused them, or the connection broke), by command name',
      labelNames: ['command'] as const,
    }),
);

/** A command's name as a label: the driver's names are a fixed list; anything odd is `other`. */
const commandLabel = (name: string) => (/^[A-Za-z]{1,40}$/.test(name) ? name : 'other');

/**
 * Counts every command of this process's connection (MongoDB's command monitoring: the
 * connection must be opened with `monitorCommands: true`).
 */
export function observeDatabase(client: MongoClient) {
  client.on('commandSucceeded', (event) =>
    dbCommands.observe({ command: commandLabel(event.commandName) }, event.duration / 1000),
  );
  client.on('commandFailed', (event) => {
    const command = commandLabel(event.commandName);
    dbCommands.observe({ command }, event.duration / 1000);
    dbFailures.inc({ command });
  });
}
