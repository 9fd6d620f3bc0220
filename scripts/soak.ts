/**
 * Soak test of the production build:  npm run build && npm run soak
 *
 * Starts the database in a process of its own, as MongoDB is in production (the embedded engine
 * as `npm run db -- --dir` runs it, on a fresh temporary data directory), and `node server.js`
 * against it on a free port (SOAK_PORT, default 3470, else one the system picks), with SMTP_URL
 * pointing at an SMTP sink this script runs on 127.0.0.1 (SOAK_SMTP_PORT, default 2770) that
 * accepts and counts every message. Then SOAK_CONNECTIONS clients (default 20) send mixed traffic
 * for SOAK_SECONDS (default 600), each one request at a time:
 * - public tracking, page and API, of parcels that exist and of numbers that don't (404);
 * - the home page and the other public pages, and a page that doesn't exist (404);
 * - the parcels API with a bearer token from POST /api/auth/login: create, read, update, add a
 *   tracking event, list its events, search, list a page, delete; and API sign-ins (a new
 *   token, GET /api/auth/me with it, POST /api/auth/logout);
 * - staff sign-ins through the login form (POST /management/access, form-encoded, with the
 *   site's Origin), the dashboard signed in, and sign-outs (POST /logout); now and then a wrong
 *   password (400) and a sign-out from another origin (refused, 403);
 * - customer e-mails through POST /api/notifications (queued), which the sink must receive.
 * Rate limits are set high in the server's environment so that they refuse nothing.
 *
 * It prints the errors — any status other than the one expected for that kind of request, any
 * network error, anything the server or the database writes to stderr, e-mails that did not
 * arrive — with a sample of each kind; requests and p50/p99 latency per kind of request; e-mails
 * sent and received; and the memory of every app process (the primary and, with
 * WEB_CONCURRENCY > 1, each worker) at the start, after the warm-up (the first 10 % of the time,
 * and at least 30 s or a quarter of the time, whichever is shorter) and at the end, with the
 * growth after the warm-up (target: under 15 %). The heap comes from the processes themselves,
 * since the app reports none (its health route says only whether the database answers):
 * scripts/support/soak-memory.js is loaded into each one (NODE_OPTIONS=--import) and, when asked
 * at those three moments, runs a full garbage collection and reports the heap in use, which is
 * then the live heap rather than whatever garbage waits for the next collection, and the RSS once
 * that collection has settled (see that file for why). Those collections (and one halfway between
 * the warm-up and the end) are the only change to the server's work. It also prints where each
 * process's RSS is (V8's committed heap, memory outside it, mapped files, the rest).
 *
 * The database's process is measured the same way and shown apart, with the documents it holds:
 * the embedded engine keeps every document in memory, so its memory grows with the data the
 * traffic leaves behind (audit entries, e-mails, finished jobs), and what it adds per document in
 * each half of the run after the warm-up is what tells data from a leak.
 *
 * Requests go to 127.0.0.1 only; the run ends after SOAK_SECONDS or SOAK_MAX_REQUESTS requests
 * (default 1,000 a second of the run), whichever comes first. The exit code is 1 when there were
 * errors. WEB_CONCURRENCY is passed to the server as it is set here (unset: one per CPU).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { SMTPServer } from 'smtp-server';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const MAX_REQUESTS = Number(process.env.SOAK_MAX_REQUESTS ?? 1000 * SECONDS);
const WARMUP = Math.max(0.1 * SECONDS, Math.min(30, 0.25 * SECONDS));
const GROWTH_TARGET = 15;
const REQUEST_TIMEOUT_MS = 30_000;
/** Parcels created before the traffic starts, for the lookups that find something. */
const POOL = 200;
const ADMIN = { username: 'soak', password: 'soak-password-123' };

for (const [name, value] of Object.entries({ SECONDS, CONNECTIONS, MAX_REQUESTS }))
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`SOAK_${name} must be a positive number`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-soak-'));
const memoryDir = path.join(dataDir, 'memory');
fs.mkdirSync(memoryDir);

/* ---------- The SMTP sink ---------- */

async function startSink(preferredPort: number) {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  const port = await listenOn(preferredPort, (p) => server.listen(p, '127.0.0.1'), server.server);
  return {
    port,
    received: () => received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Listens on `preferred`, or on a port the system picks when that one is taken. */
function listenOn(
  preferred: number,
  listen: (port: number) => void,
  server: net.Server,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' && preferred !== 0) {
        preferred = 0;
        listen(0);
      } else reject(error);
    };
    server.on('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
    listen(preferred);
  });
}

/** SOAK_PORT when it is free, else a free port the system picks. */
async function freePort(preferred: number): Promise<number> {
  const probe = net.createServer();
  const port = await listenOn(preferred, (p) => probe.listen(p, '127.0.0.1'), probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/* ---------- The database and the server ---------- */

const serverErrors: string[] = [];

/** Loads scripts/support/soak-memory.js into a process, so that it reports its memory. */
const MEMORY_REPORTS = {
  SOAK_MEMORY_DIR: memoryDir,
  NODE_OPTIONS: [
    process.env.NODE_OPTIONS ?? '',
    `--import=${pathToFileURL(path.resolve('scripts/support/soak-memory.js')).href}`,
  ]
    .join(' ')
    .trim(),
};

/**
 * The database, in a process of its own as MongoDB is in production: the embedded engine as
 * `npm run db -- --dir` runs it, on the data directory. The app reaches it through the
 * directory's socket, the way it reaches the engine it starts itself. The engine keeps every
 * document in memory, so its memory follows the data; apart from the app's processes, it is
 * reported against the documents it holds.
 */
function startDatabase() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'embedded-mongo/cli.ts', '--dir', path.join(dataDir, 'db')],
    { env: { ...process.env, ...MEMORY_REPORTS }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise<{ database: ChildProcess; uri: string }>((resolve, reject) => {
    let err = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      err += text;
      const socket = /^embedded-mongo: also at (mongodb:\/\/\S+)$/m.exec(err)?.[1];
      if (socket) resolve({ database: child, uri: `${socket.replace(/\/?$/, '/')}courier` });
      for (const line of text.split('\n'))
        if (line.trim() && !line.startsWith('embedded-mongo: also at'))
          serverErrors.push(`database: ${line}`);
    });
    child.once('exit', (code) =>
      reject(new Error(`the database exited with ${code}:\n${err.trim()}`)),
    );
  });
}

function startServer(port: number, smtpPort: number, databaseUri: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...MEMORY_REPORTS,
    MONGODB_URI: databaseUri,
    // An empty database given by MONGODB_URI gets the admin and demo parcels only when asked.
    SEED_DEMO: 'true',
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    SESSION_SECRET: 'soak-session-secret-0123456789',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_TRACKING_PER_MINUTE: '100000000',
    // One token makes all the API traffic: each request is still counted, never refused.
    RATE_LIMIT_API_PER_MINUTE: '100000000',
    // The most the app allows, per minute: the wrong passwords sent stay far below it.
    LOGIN_MAX_FAILURES: '1000',
    LOGIN_WINDOW_MINUTES: '1',
  };
  delete env.PUBLIC_URL;
  const child = spawn(process.execPath, ['server.js'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim()) serverErrors.push(line);
  });
  return new Promise<ChildProcess>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    // Until it listens; then its request log (a line a request) is let through unread.
    const starting = (text: string) => {
      out += text;
      if (!out.includes('listening on')) return;
      child.stdout!.off('data', starting);
      child.stdout!.resume();
      resolve(child);
    };
    child.stdout!.on('data', starting);
    child.once('exit', (code) =>
      reject(new Error(`the server exited with ${code}:\n${serverErrors.join('\n')}`)),
    );
  });
}

/** Stops the server or the database (SIGTERM, then SIGKILL after 15 s). */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/* ---------- Memory ---------- */

type HeapReport = {
  request: string;
  /** Read once the collection has settled. */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  youngCommitted: number;
  external: number;
};

type ProcessMemory = {
  pid: number;
  role: string;
  rss: number | null;
  heap: number | null;
  /** What the process said about its memory, when it answered. */
  report: HeapReport | null;
  /** The part of the RSS that is mapped files: node's own binary and libraries, shared. */
  rssFile: number | null;
};

function children(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A line of /proc/<pid>/status in bytes (VmRSS: all resident memory; RssFile: mapped files). */
function statusBytes(pid: number, field: 'VmRSS' | 'RssFile'): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const rssOf = (pid: number) => statusBytes(pid, 'VmRSS');

let memoryRequest = 0;

/** What a process (or thread) reported for `request`, or null while it has not answered. */
function heapReport(pid: number, request: number, file = `${pid}.json`): HeapReport | null {
  try {
    const report = JSON.parse(fs.readFileSync(path.join(memoryDir, file), 'utf8')) as HeapReport;
    return report.request === String(request) ? report : null;
  } catch {
    return null;
  }
}

/** The heap in use a process (or thread) reported for `request`, or null. */
function reportedHeap(pid: number, request: number, file = `${pid}.json`): number | null {
  return heapReport(pid, request, file)?.heapUsed ?? null;
}

/** The reports of a process's worker threads, by file name. */
function threadReports(pid: number): string[] {
  return fs.readdirSync(memoryDir).filter((name) => name.startsWith(`${pid}-thread-`));
}

/**
 * The memory of the server's node processes (the primary and its workers) and of the database's:
 * each one is asked for its heap after a full collection and its resident size once that has
 * settled (scripts/support/soak-memory.js), and given up to 10 s to answer. The resident size of
 * one that has not answered is read from /proc.
 */
async function sampleMemory(primary: number, database: number): Promise<ProcessMemory[]> {
  const request = ++memoryRequest;
  fs.writeFileSync(path.join(memoryDir, 'request'), String(request));
  const pids = [primary, ...children(primary), database];
  const threads = () => pids.flatMap((pid) => threadReports(pid).map((file) => ({ pid, file })));
  const until = Date.now() + 10_000;
  const waiting = () =>
    pids.some((pid) => reportedHeap(pid, request) === null) ||
    threads().some(({ pid, file }) => reportedHeap(pid, request, file) === null);
  while (Date.now() < until && waiting()) await new Promise((resolve) => setTimeout(resolve, 100));
  const processes = pids.flatMap((pid, i): ProcessMemory[] => {
    const report = heapReport(pid, request);
    const rss = report?.rss ?? rssOf(pid);
    if (rss === null) return [];
    const role = pid === database ? 'database' : i === 0 ? 'primary' : 'worker';
    const rssFile = statusBytes(pid, 'RssFile');
    return [{ pid, role, rss, heap: report?.heapUsed ?? null, report, rssFile }];
  });
  // A worker thread: its heap only (its memory is part of its process's RSS).
  const threadMemory = threads().map(({ pid, file }): ProcessMemory => {
    const report = heapReport(pid, request, file);
    return {
      pid,
      role: `thread ${file.replace(/^\d+-thread-|\.json$/g, '')} of`,
      rss: null,
      heap: report?.heapUsed ?? null,
      report,
      rssFile: null,
    };
  });
  return [...processes, ...threadMemory];
}

/**
 * The documents the database holds, per collection: what the engine's memory is expected to grow
 * with, since the embedded engine keeps its data in memory.
 */
async function sampleData(uri: string): Promise<Map<string, number>> {
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db();
    const counts = new Map<string, number>();
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray())
      counts.set(name, await db.collection(name).countDocuments());
    return counts;
  } finally {
    await client.close();
  }
}

type Processes = { server: number; database: number; databaseUri: string };

async function sampleAll({ server, database, databaseUri }: Processes) {
  const memory = await sampleMemory(server, database);
  return { memory, data: await sampleData(databaseUri) };
}

/* ---------- Traffic ---------- */

type Kind = {
  requests: number;
  latencies: number[];
  errors: number;
};
const kinds = new Map<string, Kind>();
const errors = new Map<string, { count: number; sample: string }>();
let total = 0;
let emailsSent = 0;
let base = '';
let deadline = 0;

const running = () => Date.now() < deadline && total < MAX_REQUESTS;

function recordError(kind: string, reason: string, sample: string) {
  const key = `${kind}: ${reason}`;
  const entry = errors.get(key);
  if (entry) entry.count++;
  else errors.set(key, { count: 1, sample: sample.slice(0, 300) });
  kinds.get(kind)!.errors++;
}

type Answer = { status: number; headers: Headers; text: string };

/**
 * One request of a named kind. Any status but `expected` is an error (with a sample), as is a
 * network error or a timeout; either way the answer (or null) goes back to the caller.
 */
async function call(
  kind: string,
  method: string,
  pathname: string,
  options: { expected: number; headers?: Record<string, string>; body?: string } = {
    expected: 200,
  },
): Promise<Answer | null> {
  if (!kinds.has(kind)) kinds.set(kind, { requests: 0, latencies: [], errors: 0 });
  const stats = kinds.get(kind)!;
  total++;
  stats.requests++;
  const started = performance.now();
  try {
    const response = await fetch(base + pathname, {
      method,
      headers: options.headers,
      body: options.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    stats.latencies.push(performance.now() - started);
    if (response.status !== options.expected) {
      recordError(
        kind,
        `status ${response.status} (expected ${options.expected})`,
        `${method} ${pathname} → ${response.status}: ${text}`,
      );
    }
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    stats.latencies.push(performance.now() - started);
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const reason = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.name);
    recordError(kind, reason, `${method} ${pathname}: ${e.cause?.message ?? e.message}`);
    return null;
  }
}

const json = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});

function parse<T>(answer: Answer | null): T | null {
  if (!answer || answer.status >= 300) return null;
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return null;
  }
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const digits = () => String(Math.floor(Math.random() * 1e9)).padStart(9, '0');

const PUBLIC_PAGES = [
  '/',
  '/about',
  '/services',
  '/contact',
  '/quote',
  '/track',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
];
const NAMES = ['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Mateo', 'Sofia', 'Lucas', 'Mia', 'Ethan'];

let pool: string[] = [];

async function login(): Promise<string | null> {
  const answer = await call('POST /api/auth/login', 'POST', '/api/auth/login', {
    expected: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return parse<{ token: string }>(answer)?.token ?? null;
}

function parcelBody(n: number) {
  const name = `${pick(NAMES)} Soak ${n}`;
  return {
    sender: { name: `Sender ${n}`, email: `sender${n}@example.com`, address: `${n} Market St` },
    recipient: { name, email: `r${n}@example.com`, address: `${n} Elm St, Shelbyville` },
    weight: (Math.abs(n) % 50) / 10,
    dimensions: { length: 30, width: 20, height: 10 },
    serviceType: pick(['Standard', 'Express', 'Premium', 'Overnight']),
    priority: pick(['Low', 'Standard', 'High', 'Express']),
  };
}

/** Scenarios, each with its weight: lookups dominate, as they do on a courier's site. */
const scenarios: [number, (token: string, n: number) => Promise<void>][] = [
  [
    1,
    // An integrator signs in to the API, checks who it is and signs out (revoking the token).
    async () => {
      const token = await login();
      if (!token || !running()) return;
      await call('GET /api/auth/me', 'GET', '/api/auth/me', {
        expected: 200,
        headers: json(token),
      });
      await call('POST /api/auth/logout', 'POST', '/api/auth/logout', {
        expected: 200,
        headers: json(token),
      });
    },
  ],
  [
    25,
    async () => {
      await call('GET /api/tracking/track/:n (found)', 'GET', `/api/tracking/track/${pick(pool)}`);
    },
  ],
  [
    8,
    async () => {
      await call(
        'GET /api/tracking/track/:n (not found)',
        'GET',
        `/api/tracking/track/ZZQ${digits()}`,
        {
          expected: 404,
        },
      );
    },
  ],
  [
    12,
    async () => {
      await call('GET /track?number= (found)', 'GET', `/track?number=${pick(pool)}`);
    },
  ],
  [
    5,
    async () => {
      await call('GET /track?number= (not found)', 'GET', `/track?number=ZZQ${digits()}`, {
        expected: 404,
      });
    },
  ],
  [
    15,
    async () => {
      await call('GET public pages', 'GET', pick(PUBLIC_PAGES));
    },
  ],
  [
    2,
    async () => {
      await call('GET a page that does not exist', 'GET', `/no-such-page-${digits()}`, {
        expected: 404,
      });
    },
  ],
  [
    10,
    // A parcel's life through the API: created, read, changed, an event, found, deleted.
    async (token, n) => {
      const created = parse<{ parcel: { id: string; trackingNumber: string } }>(
        await call('POST /api/parcels', 'POST', '/api/parcels', {
          expected: 201,
          headers: json(token),
          body: JSON.stringify(parcelBody(n)),
        }),
      );
      if (!created) return;
      const { id } = created.parcel;
      const search = `/api/parcels?search=${encodeURIComponent(`Soak ${n}`)}&limit=20`;
      const steps: Array<
        [kind: string, method: string, path: string, expected: number, body?: unknown]
      > = [
        ['GET /api/parcels/:id', 'GET', `/api/parcels/${id}`, 200],
        [
          'PUT /api/parcels/:id',
          'PUT',
          `/api/parcels/${id}`,
          200,
          { status: 'In Transit', weight: 2.5, recipient: { phone: '+1 555 0100' } },
        ],
        [
          'POST /api/tracking/:id/events',
          'POST',
          `/api/tracking/${id}/events`,
          201,
          {
            status: 'Arrived at Facility',
            location: 'Springfield hub',
            description: 'Sorted for delivery',
          },
        ],
        ['GET /api/tracking/:id/events', 'GET', `/api/tracking/${id}/events`, 200],
        ['GET /api/parcels?search=', 'GET', search, 200],
        ['DELETE /api/parcels/:id', 'DELETE', `/api/parcels/${id}`, 200],
      ];
      for (const [kind, method, path, expected, body] of steps) {
        if (!running()) return;
        await call(kind, method, path, {
          expected,
          headers: json(token),
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      }
    },
  ],
  [
    4,
    async (token) => {
      await call(
        'GET /api/parcels?page=',
        'GET',
        `/api/parcels?page=${1 + Math.floor(Math.random() * 3)}&limit=50&status=Pending`,
        {
          expected: 200,
          headers: json(token),
        },
      );
    },
  ],
  [
    4,
    // A member of staff signs in through the form, opens the dashboard and signs out.
    async (_token, n) => {
      const origin = { origin: base, 'content-type': 'application/x-www-form-urlencoded' };
      if (n % 10 === 0) {
        await call('POST /management/access (wrong password)', 'POST', '/management/access', {
          expected: 400,
          headers: origin,
          body: new URLSearchParams({
            username: ADMIN.username,
            password: 'wrong-password',
          }).toString(),
        });
        return;
      }
      const signIn = await call('POST /management/access', 'POST', '/management/access', {
        expected: 302,
        headers: origin,
        body: new URLSearchParams({ ...ADMIN, redirectTo: '/dashboard' }).toString(),
      });
      const cookie = (signIn?.headers.getSetCookie() ?? [])
        .map((c) => c.split(';')[0]!)
        .filter((c) => c.startsWith('__session='))
        .join('; ');
      if (!cookie) {
        if (signIn?.status === 302)
          recordError('POST /management/access', 'no session cookie', signIn.text);
        return;
      }
      if (!running()) return;
      await call('GET /dashboard (signed in)', 'GET', '/dashboard', {
        expected: 200,
        headers: { cookie },
      });
      if (!running()) return;
      if (n % 10 === 1) {
        await call('POST /logout from another site (refused)', 'POST', '/logout', {
          expected: 403,
          headers: { ...origin, cookie, origin: 'http://elsewhere.example' },
          body: '',
        });
      }
      await call('POST /logout', 'POST', '/logout', {
        expected: 302,
        headers: { ...origin, cookie },
        body: '',
      });
    },
  ],
  [
    3,
    async (token, n) => {
      const answer = await call('POST /api/notifications', 'POST', '/api/notifications', {
        expected: 201,
        headers: json(token),
        body: JSON.stringify({
          type: 'Status Update',
          recipient: `customer${n}@example.com`,
          title: `Your parcel is on its way (${n})`,
          message: 'Your parcel has left our Springfield hub and will arrive soon.',
          trackingNumber: pick(pool),
        }),
      });
      const created = parse<{ notification: { status: string; emailResult: { error: string } } }>(
        answer,
      );
      if (!created) return;
      // Stored and queued: the worker sends it; the sink must have it by the end.
      if (created.notification.status !== 'failed') emailsSent++;
      else
        recordError(
          'POST /api/notifications',
          `notification ${created.notification.status}`,
          created.notification.emailResult.error ?? answer!.text,
        );
    },
  ],
];
const totalWeight = scenarios.reduce((sum, [weight]) => sum + weight, 0);

function pickScenario() {
  let r = Math.random() * totalWeight;
  for (const [weight, scenario] of scenarios) {
    r -= weight;
    if (r < 0) return scenario;
  }
  return scenarios[0]![1];
}

let counter = 0;

/** One client: one request at a time, until the run ends. The API calls share one token. */
async function client(token: string) {
  while (running()) await pickScenario()(token, ++counter);
}

/** The parcels the lookups find, made through the API before the measured traffic. */
async function createPool(token: string) {
  const numbers: string[] = [];
  for (let i = 0; i < POOL; i += 10) {
    const made = await Promise.all(
      Array.from({ length: 10 }, async (_, j) => {
        const response = await fetch(`${base}/api/parcels`, {
          method: 'POST',
          headers: json(token),
          body: JSON.stringify(parcelBody(i + j)),
        });
        if (response.status !== 201)
          throw new Error(`creating a parcel: ${response.status} ${await response.text()}`);
        return ((await response.json()) as { parcel: { trackingNumber: string } }).parcel
          .trackingNumber;
      }),
    );
    numbers.push(...made);
  }
  return numbers;
}

/* ---------- Report ---------- */

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? '–' : (bytes / 1024 / 1024).toFixed(1);
const growth = (from: number | null | undefined, to: number | null | undefined) =>
  from && to ? (100 * (to - from)) / from : null;

/**
 * Each process's RSS and heap at the start, after the warm-up, halfway from there to the end and
 * at the end, with the growth from the warm-up to the end. Halfway tells a leak (growing in both
 * halves) from memory that settles once the work is known (compiled code, caches).
 */
function memoryTable(
  [start, warm, middle, end]: (ProcessMemory[] | undefined)[],
  which: (m: ProcessMemory) => boolean,
) {
  const key = (m: ProcessMemory) => `${m.role} ${m.pid}`;
  const all = [start, warm, middle, end].flatMap((sample) => sample ?? []);
  const keys = [...new Set(all.filter(which).map(key))];
  return keys.map((name) => {
    const at = (sample: ProcessMemory[] | undefined) => sample?.find((m) => key(m) === name);
    const [s, w, h, e] = [at(start), at(warm), at(middle), at(end)];
    const rssGrowth = growth(w?.rss, e?.rss);
    const heapGrowth = growth(w?.heap, e?.heap);
    const percent = (value: number | null) => (value === null ? '–' : `${value.toFixed(1)} %`);
    return {
      process: name,
      'RSS MB: start → warm-up → halfway → end': [s?.rss, w?.rss, h?.rss, e?.rss]
        .map(mb)
        .join(' → '),
      'RSS growth': percent(rssGrowth),
      'heap MB: start → warm-up → halfway → end': [s?.heap, w?.heap, h?.heap, e?.heap]
        .map(mb)
        .join(' → '),
      'heap growth': percent(heapGrowth),
      worst: Math.max(rssGrowth ?? 0, heapGrowth ?? 0),
    };
  });
}

/** For each process: its RSS split into V8's committed heap, external memory and the rest. */
function rssBreakdown([, warm, , end]: (ProcessMemory[] | undefined)[]) {
  return (end ?? [])
    .filter((m) => m.rss !== null)
    .map((m) => {
      const before = warm?.find((w) => w.pid === m.pid && w.role === m.role);
      const split = (p: ProcessMemory | undefined) => {
        if (!p?.report || p.rss === null || p.rssFile === null) return null;
        const { heapTotal, youngCommitted, external } = p.report;
        return {
          young: youngCommitted,
          old: heapTotal - youngCommitted,
          external,
          files: p.rssFile,
          rest: p.rss - p.rssFile - heapTotal - external,
        };
      };
      const [w, e] = [split(before), split(m)];
      const both = (k: keyof NonNullable<typeof w>) => `${mb(w?.[k])} → ${mb(e?.[k])}`;
      return {
        process: `${m.role} ${m.pid}`,
        RSS: `${mb(before?.rss)} → ${mb(m.rss)}`,
        'V8 young generation': both('young'),
        'V8 rest of the heap': both('old'),
        'external (Buffers…)': both('external'),
        'mapped files': both('files'),
        rest: both('rest'),
      };
    });
}

type Sample = Awaited<ReturnType<typeof sampleAll>>;

/**
 * The database process's memory added per document added, from the warm-up to the middle of the
 * run and from the middle to the end: the same figure in both halves is memory that follows the
 * data it holds; a leak would add memory without documents.
 */
function databasePerDocument(
  warm: Sample,
  middle: Sample,
  end: Sample,
  documents: (data: Map<string, number>) => number,
) {
  const database = (sample: Sample) => sample.memory.find((m) => m.role === 'database');
  const half = (from: Sample, to: Sample) => {
    const added = documents(to.data) - documents(from.data);
    const [a, b] = [database(from), database(to)];
    const each = (key: 'rss' | 'heap') => {
      const [x, y] = [a?.[key], b?.[key]];
      if (x === null || x === undefined || y === null || y === undefined) return 'not reported';
      const perDocument = added > 0 ? ` (${((y - x) / added / 1024).toFixed(2)} KB each)` : '';
      return `${(y - x >= 0 ? '+' : '') + mb(y - x)} MB${perDocument}`;
    };
    return `${added} more documents, RSS ${each('rss')}, heap ${each('heap')}`;
  };
  return (
    "The database's memory against the documents it holds: after the warm-up to the middle, " +
    `${half(warm, middle)}; the middle to the end, ${half(middle, end)}.`
  );
}

/* ---------- Main ---------- */

async function main(): Promise<number> {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` first.');
  const sink = await startSink(Number(process.env.SOAK_SMTP_PORT ?? 2770));
  const port = await freePort(Number(process.env.SOAK_PORT ?? 3470));
  base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  let database: ChildProcess | null = null;
  let stopped = false;
  try {
    const started = await startDatabase();
    database = started.database;
    server = await startServer(port, sink.port, started.uri);
    for (const [name, child] of [
      ['server', server],
      ['database', database],
    ] as const) {
      child.once('exit', (code, signal) => {
        if (!stopped) {
          serverErrors.push(`the ${name} stopped by itself (${signal ?? code})`);
          deadline = 0;
        }
      });
    }
    const processes: Processes = {
      server: server.pid!,
      database: database.pid!,
      databaseUri: started.uri,
    };
    const setupToken = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    }).then(async (r) => {
      if (r.status !== 200) throw new Error(`signing in: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { token: string }).token;
    });
    pool = await createPool(setupToken);

    const appProcesses = 1 + children(server.pid!).length;
    console.log(
      `Soak: ${SECONDS} s, ${CONNECTIONS} connections, ${appProcesses} app process${appProcesses > 1 ? 'es' : ''} ` +
        `and the database's, warm-up ${WARMUP.toFixed(0)} s, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}; ` +
        `server on ${base}, SMTP sink on 127.0.0.1:${sink.port}`,
    );
    const samples = [await sampleAll(processes)];
    const begun = Date.now();
    deadline = begun + SECONDS * 1000;
    let warm: ReturnType<typeof sampleAll> | null = null;
    const warmTimer = setTimeout(() => (warm = sampleAll(processes)), WARMUP * 1000);
    // Halfway between the warm-up and the end: whether the database's memory follows its data.
    let middle: ReturnType<typeof sampleAll> | null = null;
    const middleTimer = setTimeout(
      () => (middle = sampleAll(processes)),
      ((WARMUP + SECONDS) / 2) * 1000,
    );
    const progress = setInterval(
      () => {
        const errorCount = [...errors.values()].reduce((sum, e) => sum + e.count, 0);
        const pids = [server!.pid!, ...children(server!.pid!), database!.pid!];
        const rss = pids.map((pid) => mb(rssOf(pid))).join(' / ');
        console.log(
          `  ${((Date.now() - begun) / 1000).toFixed(0)} s: ${total} requests, ${errorCount} errors, ` +
            `${emailsSent} e-mails sent, ${sink.received()} received; RSS MB ${rss} (the last: the database)`,
        );
      },
      Math.max(10_000, (SECONDS * 1000) / 10),
    );
    await Promise.all(Array.from({ length: CONNECTIONS }, () => client(setupToken)));
    clearTimeout(warmTimer);
    clearTimeout(middleTimer);
    clearInterval(progress);
    const elapsed = (Date.now() - begun) / 1000;
    samples.push(await (warm ?? sampleAll(processes)));
    samples.push(await sampleAll(processes));
    const halfway = middle ? await middle : null;

    // Every e-mail was queued before its request was answered: give the workers time to finish.
    const mailDeadline = Date.now() + 60_000;
    while (sink.received() < emailsSent && Date.now() < mailDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (sink.received() !== emailsSent) {
      if (!kinds.has('e-mail')) kinds.set('e-mail', { requests: 0, latencies: [], errors: 0 });
      recordError(
        'e-mail',
        'not received',
        `${emailsSent} notifications sent, the SMTP sink received ${sink.received()}`,
      );
    }
    for (const line of serverErrors) {
      if (!kinds.has('server')) kinds.set('server', { requests: 0, latencies: [], errors: 0 });
      recordError('server', 'wrote to stderr', line);
    }

    console.log(
      `\n${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s)`,
    );
    console.table(
      [...kinds.entries()]
        .filter(([, k]) => k.requests > 0)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, k]) => {
          const sorted = [...k.latencies].sort((a, b) => a - b);
          return {
            'request kind': name,
            requests: k.requests,
            errors: k.errors,
            'p50 ms': Number(percentile(sorted, 50).toFixed(1)),
            'p99 ms': Number(percentile(sorted, 99).toFixed(1)),
          };
        }),
    );
    console.log(`E-mails: ${emailsSent} sent, ${sink.received()} received by the SMTP sink`);

    const memory = [samples[0], samples[1], halfway ?? undefined, samples[2]].map(
      (sample) => sample?.memory,
    );
    const rows = memoryTable(memory, (m) => m.pid !== processes.database);
    console.log(
      "\nMemory of the app's processes (RSS once a full collection has settled; heap: V8 heap in " +
        'use right after it):',
    );
    console.table(rows.map(({ worst: _worst, ...row }) => row));
    const worst = Math.max(...rows.map((r) => r.worst));
    console.log(
      `Growth after the warm-up: at most ${worst.toFixed(1)} % ` +
        (worst < GROWTH_TARGET
          ? `(target: under ${GROWTH_TARGET} %)`
          : `— ABOVE the ${GROWTH_TARGET} % target`),
    );
    console.log(
      "\nThe database's process (the embedded engine, which keeps every document in memory, so " +
        'that its memory grows with the data; see below):',
    );
    console.table(
      memoryTable(memory, (m) => m.pid === processes.database).map(
        ({ worst: _worst, ...row }) => row,
      ),
    );
    console.log(
      "\nWhere each process's RSS is, after the warm-up → at the end (MB): the V8 heap it has " +
        'committed (young generation apart), memory that Buffers and other objects hold outside ' +
        "it, mapped files (node's binary and libraries), and the rest (the allocator's memory, " +
        'thread stacks, native memory):',
    );
    console.table(rssBreakdown(memory));
    const [dataStart, dataWarm, dataEnd] = samples.map((sample) => sample.data);
    const collections = [...new Set([...dataStart!.keys(), ...dataEnd!.keys()])].sort();
    const documents = (data: Map<string, number> | undefined) =>
      [...(data?.values() ?? [])].reduce((sum, n) => sum + n, 0);
    console.log(
      '\nDocuments the database holds (the embedded engine keeps them in memory; the traffic ' +
        'deletes the parcels it creates, while audit entries, e-mails and finished jobs stay):',
    );
    console.table(
      collections
        .map((name) => ({
          collection: name,
          'start → warm-up → end': [dataStart, dataWarm, dataEnd]
            .map((data) => data?.get(name) ?? 0)
            .join(' → '),
        }))
        .concat({
          collection: 'all',
          'start → warm-up → end': [dataStart, dataWarm, dataEnd].map(documents).join(' → '),
        }),
    );
    if (halfway) console.log(databasePerDocument(samples[1]!, halfway, samples[2]!, documents));

    const errorCount = [...errors.values()].reduce((sum, e) => sum + e.count, 0);
    console.log(`\nErrors: ${errorCount}${errorCount ? '' : ' (target: 0)'}`);
    for (const [key, { count, sample }] of errors)
      console.log(`  ${count} × ${key}\n      e.g. ${sample}`);
    return errorCount > 0 ? 1 : 0;
  } finally {
    stopped = true;
    if (server) await stop(server);
    if (database) await stop(database);
    await sink.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`Soak failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
