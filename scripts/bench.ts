/**
 * Measures the production build on the embedded database:
 *   npm run build && npm run bench
 * Starts `node server.js` on a fresh data directory holding BENCH_PARCELS parcels (default 10,000),
 * then drives it with autocannon and reports requests/s and latency percentiles, each against a
 * ceiling measured beside it (see Ceiling) and against the first of two rows that show what the
 * server's stack costs by itself (a resource route with no I/O, and one with a single database
 * ping), plus the compressed bytes a browser downloads for every public page, the staff pages and
 * the courier's (signed in), each against its budget (the run fails when a page is over).
 * BENCH_ONLY=weights measures the pages alone. It ends with what the build serves in a regional
 * courier's day (scripts/support/capacity.ts), from the tracking page's, the tracking API's and the
 * scans' rates. The staff table rows ("table: …", two connections) and the CSV export ("export":
 * time and the server's peak memory) are meant for BENCH_PARCELS=100000 BENCH_ONLY=table,export,
 * and so is the delivery performance report's ("report").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import mongoose from 'mongoose';
import { startEmbeddedMongo } from '../embedded-mongo';
import { FINAL_STATUSES, PARCEL_STATUSES } from '../app/schemas/constants';
import { COURIER_DAY, courierDayCapacity } from './support/capacity';

const PARCELS = Number(process.env.BENCH_PARCELS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 15);
const PORT = Number(process.env.BENCH_PORT ?? 3456);
/** Comma-separated words; only rows whose name contains one of them run (all when unset). */
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean);
/** BENCH_ONLY=weights: the page weights alone, no load test (nor its ceiling). */
const WEIGHTS_ONLY = ONLY.length > 0 && ONLY.every((word) => word === 'weights');
const BASE = `http://127.0.0.1:${PORT}`;
const CEILING_PORT = PORT + 1;
/**
 * BENCH_CPU_PROF=<dir>: the app's processes run with `--cpu-prof`, each writing its CPU profile
 * into that folder when the bench stops it (open them in Chrome's DevTools, Performance tab).
 */
const CPU_PROF = process.env.BENCH_CPU_PROF;
const ADMIN = { username: 'bench', password: 'bench-password-123' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-bench-'));

async function seed() {
  // Fill the data directory the app will open, using the same engine standalone.
  const engine = await startEmbeddedMongo({ dir: path.join(dataDir, 'db') });
  process.env.MONGODB_URI = `${engine.uri.replace(/\/?$/, '/')}courier`;
  const { Parcel } = await import('../app/models/parcel.server');
  const { generateTrackingNumber } = await import('../app/models/parcel-tracking-numbers.server');
  const { createUser } = await import('../app/models/user.server');
  await mongoose.connect(process.env.MONGODB_URI);
  await Parcel.init();
  await createUser({
    username: ADMIN.username,
    password: ADMIN.password,
    name: 'Bench',
    role: 'admin',
  });
  const names = [
    'Olivia',
    'Liam',
    'Emma',
    'Noah',
    'Ava',
    'Mateo',
    'Sofia',
    'Lucas',
    'Mia',
    'Ethan',
  ];
  let trackingNumber = '';
  // The parcels a scan may move on (not delivered or returned), for the scans row.
  const scannable: string[] = [];
  const started = Date.now();
  for (let i = 0; i < PARCELS; i += 500) {
    const batch = Array.from({ length: Math.min(500, PARCELS - i) }, (_, j) => {
      const n = i + j;
      return {
        trackingNumber: generateTrackingNumber(),
        sender: {
          name: `${names[n % 10]} Sender ${n}`,
          email: `s${n}@example.com`,
          phone: '+1 555 0100',
          address: `${n} Market St, Springfield`,
        },
        recipient: {
          name: `${names[(n + 3) % 10]} Recipient ${n}`,
          email: `r${n}@example.com`,
          phone: '+1 555 0199',
          address: `${n} Elm St, Shelbyville`,
        },
        weight: (n % 200) / 10,
        dimensions: { length: 30, width: 20, height: 10 },
        serviceType: 'Standard',
        priority: 'Standard',
        status: PARCEL_STATUSES[n % PARCEL_STATUSES.length],
        // Delivered over the last 30 days, for the delivery performance report.
        ...(PARCEL_STATUSES[n % PARCEL_STATUSES.length] === 'Delivered'
          ? { actualDelivery: new Date(Date.now() - (n % 30) * 86_400_000) }
          : {}),
        cost: 25.99,
        destinations: [
          {
            name: 'Recipient',
            address: `${n} Elm St`,
            city: 'Shelbyville',
            country: 'USA',
            postalCode: '12345',
          },
        ],
        events: [
          // Every seventh parcel had a failed attempt.
          ...(n % 7 === 0
            ? [
                {
                  status: 'Failed Delivery',
                  reason: 'recipient_unavailable',
                  location: 'Shelbyville',
                  timestamp: new Date(Date.now() - (n % 30) * 86_400_000 - 1800_000),
                },
              ]
            : []),
          {
            status: 'In Transit',
            location: 'Hub',
            description: 'On the way',
            timestamp: new Date(Date.now() - 3600_000),
          },
          {
            status: 'Package Picked Up',
            location: 'Springfield',
            description: 'Picked up',
            timestamp: new Date(Date.now() - 7200_000),
          },
        ],
      };
    });
    const docs = await Parcel.insertMany(batch);
    trackingNumber = docs[0]!.trackingNumber;
    for (const doc of docs)
      if (!(FINAL_STATUSES as readonly string[]).includes(doc.status))
        scannable.push(doc.trackingNumber);
  }
  console.log(`seeded ${PARCELS} parcels in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await mongoose.disconnect();
  return { trackingNumber, scannable, searchTerm: 'olivia sender 12', engine };
}

function startServer(script = 'server.js', extraEnv: Record<string, string> = {}, port = PORT) {
  const profile =
    CPU_PROF && script === 'server.js'
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`]
      : [];
  const child = spawn(process.execPath, [...profile, script], {
    env: {
      ...process.env,
      MONGODB_URI: '',
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-session-secret-0123456789',
      RATE_LIMIT_TRACKING_PER_MINUTE: '100000000',
      RATE_LIMIT_API_PER_MINUTE: '100000000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise<ChildProcess>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** Whether a row of that name runs (BENCH_ONLY). */
function wanted(name: string) {
  return !WEIGHTS_ONLY && (!ONLY.length || ONLY.some((word) => name.includes(word)));
}

/** The resident memory of a process and its children (cluster workers), in MB, the largest. */
function largestRss(pid: number): number {
  const pids = [pid];
  try {
    pids.push(
      ...fs
        .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    // no children listed
  }
  let largest = 0;
  for (const each of pids) {
    try {
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${each}/status`, 'utf8'))?.[1];
      largest = Math.max(largest, Number(kb ?? 0) / 1024);
    } catch {
      // gone
    }
  }
  return largest;
}

/** Downloads the whole CSV export once, timing it and watching the server's memory meanwhile. */
async function measureExport(server: ChildProcess, token: string) {
  const rssBefore = largestRss(server.pid!);
  let rssPeak = rssBefore;
  const watch = setInterval(() => (rssPeak = Math.max(rssPeak, largestRss(server.pid!))), 50);
  const started = performance.now();
  try {
    const response = await fetch(`${BASE}/api/parcels/export.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    let bytes = 0;
    let rows = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) rows++;
    }
    // The header line is not a parcel.
    return {
      rows: rows - 1,
      bytes,
      seconds: (performance.now() - started) / 1000,
      rssBefore,
      rssPeak,
    };
  } finally {
    clearInterval(watch);
  }
}

type Row = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The ceiling's rate measured just before this row and just after it. */
  ceiling?: { before: number; after: number };
};

type Load = {
  connections?: number;
  headers?: Record<string, string>;
  nextPath?: () => string;
  method?: 'GET' | 'POST';
  /** Gives each request its own body. */
  nextBody?: () => string;
};

/** Loads `url` for `warmup` seconds unmeasured, then for DURATION seconds measured. */
async function load(
  name: string,
  url: string,
  warmup: number,
  { connections = CONNECTIONS, headers = {}, nextPath, method = 'GET', nextBody }: Load = {},
): Promise<Row> {
  const requests =
    nextPath || nextBody
      ? [
          {
            method,
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              ...(nextPath ? { path: nextPath() } : {}),
              ...(nextBody ? { body: nextBody() } : {}),
            }),
          },
        ]
      : undefined;
  // Unmeasured first: the app processes compile their hot paths as they run (JIT), so this
  // gives the steady-state rate rather than the first seconds after a start.
  await autocannon({ url, connections, duration: warmup, headers, method, requests });
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    headers,
    method,
    requests,
  });
  return {
    name: `${name} [${connections} conn]`,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The ceiling — a bare node:http server doing one driver findOne per tracking lookup, on its own
 * copy of the same database — is measured beside every row: just before it, and once more after
 * the last. This machine's speed drifts by tens of percent from one minute to the next, so a row is
 * compared with the ceiling of the same minutes, not with one taken at the start of the run.
 */
class Ceiling {
  readonly runs: number[] = [];
  private pending: Row[] = [];

  constructor(private readonly url: string) {}

  /** Measures the ceiling (a short warm-up: it has been warm since its first run). */
  async measure(): Promise<number> {
    const warmup = this.runs.length ? 3 : WARMUP;
    const { rps } = await load('ceiling', this.url, warmup);
    for (const row of this.pending) row.ceiling!.after = rps;
    this.pending = [];
    this.runs.push(rps);
    return rps;
  }

  /** A row measured after a ceiling run of its own; the next run completes its comparison. */
  async beside(row: () => Promise<Row>): Promise<Row> {
    const before = await this.measure();
    const measured = await row();
    measured.ceiling = { before, after: before };
    this.pending.push(measured);
    return measured;
  }
}

let ceiling: Ceiling | null = null;

async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
  /** Gives each request its own path (e.g. a different search every time). */
  nextPath?: () => string,
  more: Pick<Load, 'method' | 'nextBody'> = {},
): Promise<Row | null> {
  if (!ceiling || (!name.startsWith('stack:') && !wanted(name))) return null;
  return ceiling.beside(() => load(name, url, WARMUP, { connections, headers, nextPath, ...more }));
}

/**
 * What a browser downloads for a page: the HTML and everything it references (stylesheets,
 * scripts, module preloads, icons), as compressed bytes of the bodies the server sends.
 */
const KB = 1000;
const PAGE_BUDGETS = (
  trackingNumber: string,
  others: string[],
  parcelId: string,
): Array<{ page: string; name?: string; budget: number; signedIn?: boolean }> => [
  { page: '/', budget: 30 * KB },
  { page: '/track', budget: 30 * KB },
  { page: `/track?number=${trackingNumber}`, budget: 14 * KB },
  { page: `/track?number=${[trackingNumber, ...others].join(',')}`, budget: 30 * KB },
  { page: '/services', budget: 30 * KB },
  { page: '/about', budget: 30 * KB },
  { page: '/contact', budget: 30 * KB },
  { page: '/quote', budget: 30 * KB },
  { page: '/privacy-policy', budget: 30 * KB },
  { page: '/terms-of-service', budget: 30 * KB },
  { page: '/cookie-policy', budget: 30 * KB },
  { page: '/no-such-page', budget: 30 * KB },
  // Signed in: the scan station, which couriers open on their phones, with all its scripts.
  { page: '/dashboard/scan?status=In+Transit&location=Dock+4', budget: 120 * KB, signedIn: true },
  // The courier's page at the door: a stop's proof of delivery.
  {
    page: `/dashboard/scan/proof/${parcelId}`,
    name: '/dashboard/scan/proof/:parcelId',
    budget: 120 * KB,
    signedIn: true,
  },
  // The courier's run, stop by stop.
  { page: '/dashboard/my-run', budget: 120 * KB, signedIn: true },
  // The staff's tabs, each with all its scripts (settings opens on its API keys).
  { page: '/dashboard', budget: 150 * KB, signedIn: true },
  { page: '/dashboard/parcels', budget: 150 * KB, signedIn: true },
  { page: '/dashboard/tracking', budget: 150 * KB, signedIn: true },
  { page: '/dashboard/notifications', budget: 150 * KB, signedIn: true },
  { page: '/dashboard/receipts', budget: 150 * KB, signedIn: true },
  { page: '/dashboard/settings/api-keys', budget: 150 * KB, signedIn: true },
];

/** The body's bytes as sent with `Accept-Encoding: gzip` (undecoded), and its text. */
function download(pathname: string, cookie = ''): Promise<{ wire: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(BASE + pathname, { headers: { 'accept-encoding': 'gzip', cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const gzipped = res.headers['content-encoding'] === 'gzip';
          resolve({ wire: body.length, text: (gzipped ? gunzipSync(body) : body).toString() });
        });
      })
      .on('error', reject);
  });
}

async function pageWeight(pathname: string, budget: number, cookie = '', name = pathname) {
  const { wire: html, text } = await download(pathname, cookie);
  const tags = [...text.matchAll(/<(?:link|script)\b[^>]*>/g)].map((m) => m[0]);
  const assets = new Set<string>();
  for (const tag of tags) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url?.startsWith('/')) continue;
    if (tag.startsWith('<script') || /rel="(?:stylesheet|modulepreload|preload|icon)"/.test(tag))
      assets.add(url);
  }
  let css = 0;
  let js = 0;
  let other = 0;
  for (const asset of assets) {
    const { wire } = await download(asset);
    if (asset.endsWith('.css')) css += wire;
    else if (asset.endsWith('.js')) js += wire;
    else other += wire;
  }
  const total = html + css + js + other;
  // A JSON-LD block is data (schema.org), not a script a browser runs.
  const inlineScripts = tags.filter(
    (t) => t.startsWith('<script') && !/\bsrc=/.test(t) && !t.includes('application/ld+json'),
  ).length;
  return {
    page: name.length > 40 ? `${name.slice(0, 37)}...` : name,
    html,
    css,
    js,
    'other (icon)': other,
    total,
    budget,
    'script files': [...assets].filter((a) => a.endsWith('.js')).length,
    'inline scripts': inlineScripts,
    result: total <= budget ? 'pass' : 'FAIL',
  };
}

/** Two more tracking numbers, for the page that looks several up at once. */
async function demoTrackingNumbers(token: string): Promise<string[]> {
  const res = await fetch(`${BASE}/api/parcels?limit=3`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { parcels } = (await res.json()) as { parcels: { trackingNumber: string }[] };
  return parcels.map((p) => p.trackingNumber).slice(0, 2);
}

/** A parcel out for delivery, whose stop's proof form the courier opens at the door. */
async function parcelOutForDelivery(token: string): Promise<string> {
  const res = await fetch(`${BASE}/api/parcels?status=Out%20for%20Delivery&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { parcels } = (await res.json()) as { parcels: { id: string }[] };
  return parcels[0]!.id;
}

async function stopServer(server: ChildProcess) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/**
 * The ceiling's server, on a copy of the seeded data directory opened by an engine of its own, so
 * that it stays up beside the app's server for the whole run.
 */
async function startCeiling() {
  const dir = path.join(dataDir, 'ceiling-db');
  fs.cpSync(path.join(dataDir, 'db'), dir, {
    recursive: true,
    filter: (source) => !/\.sock(\.path)?$/.test(source),
  });
  const engine = await startEmbeddedMongo({ dir });
  const server = await startServer(
    'scripts/bench-ceiling.js',
    { MONGODB_URI: `${engine.uri.replace(/\/?$/, '/')}courier` },
    CEILING_PORT,
  );
  return {
    stop: async () => {
      await stopServer(server);
      await engine.stop();
    },
  };
}

/** The closing lines: what the rows measured above carry in a regional courier's day. */
function printCapacity(rows: (Row | null)[]) {
  const rate = (prefix: string) => rows.find((r) => r?.name.startsWith(prefix))?.rps;
  const trackingPage = rate('GET /track?number=');
  const trackingApi = rate('GET /api/tracking/track/');
  const scans = rate('POST /api/scans');
  if (!trackingPage || !trackingApi || !scans) return;
  const { parcelsPerDay, peak, scanShare } = courierDayCapacity({
    trackingPage,
    trackingApi,
    scans,
  });
  const d = COURIER_DAY;
  const number = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `\nCapacity of this build on this machine (${os.cpus().length} cores), as a regional courier's day:` +
      `\n  ${number(parcelsPerDay)} parcels a day, each looked up ${d.lookupsPerParcel} times by people` +
      ` over ${d.lookupHours} hours and polled by an aggregator every ${d.pollMinutes} minutes around` +
      ` the clock, with ${d.peakScansPerSecond} scans a second at the morning peak, the machine then` +
      ` ${Math.round(100 * d.busiest)} % busy (the rest for staff, e-mails and bursts).` +
      `\n  At that peak: ${number(peak.polls)} polls/s (the tracking API serves ${number(trackingApi)}),` +
      ` ${number(peak.lookups)} lookups/s (the tracking page serves ${number(trackingPage)}),` +
      ` ${peak.scans} scans/s (${number(scans)} possible: ${Math.round(100 * scanShare)} % of the machine).`,
  );
}

async function main() {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` first.');
  const { trackingNumber, scannable, searchTerm, engine } = await seed();
  await engine.stop();
  const ceilingServer = WEIGHTS_ONLY ? null : await startCeiling();
  if (ceilingServer)
    ceiling = new Ceiling(`http://127.0.0.1:${CEILING_PORT}/api/tracking/track/${trackingNumber}`);
  const server = await startServer();
  try {
    const login = await fetch(`${BASE}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const form = await fetch(`${BASE}/management/access`, {
      method: 'POST',
      body: new URLSearchParams(ADMIN),
      redirect: 'manual',
    });
    const cookie = (form.headers.getSetCookie?.() ?? [])
      .map((c) => c.split(';')[0])
      .filter((c) => c.startsWith('__session='))
      .join('; ');

    const rows: (Row | null)[] = [];
    // What the server's stack (express, its middleware, Remix's adapter and router) costs on its
    // own, whatever a route does: no route it serves can go faster than these two.
    rows.push(
      await measure('stack: a resource route, no I/O (/favicon.ico, 301)', `${BASE}/favicon.ico`),
    );
    rows.push(
      await measure('stack: a resource route, one ping (/api/health)', `${BASE}/api/health`),
    );
    rows.push(
      await measure('GET /api/tracking/track/:n', `${BASE}/api/tracking/track/${trackingNumber}`),
    );
    rows.push(await measure('GET /track?number=:n', `${BASE}/track?number=${trackingNumber}`));
    rows.push(await measure('GET / (home)', `${BASE}/`));
    rows.push(
      await measure(
        `GET /api/parcels?search=… (one search, repeated)`,
        `${BASE}/api/parcels?search=${encodeURIComponent(searchTerm)}`,
        {
          authorization: `Bearer ${token}`,
        },
      ),
    );
    // A different search every time: the engine's kept result of a repeated filter never helps.
    let searches = 0;
    const names = [
      'olivia',
      'liam',
      'emma',
      'noah',
      'ava',
      'mateo',
      'sofia',
      'lucas',
      'mia',
      'ethan',
    ];
    rows.push(
      await measure(
        `GET /api/parcels?search=… (a new search each time)`,
        `${BASE}/api/parcels`,
        { authorization: `Bearer ${token}` },
        CONNECTIONS,
        () =>
          `/api/parcels?search=${encodeURIComponent(`${names[searches % 10]} sender ${searches++ % 997}`)}`,
      ),
    );
    if (cookie) {
      rows.push(
        await measure('GET /dashboard/parcels (signed in)', `${BASE}/dashboard/parcels`, {
          cookie,
        }),
      );
      // A handful of staff at once is the realistic load for the dashboard.
      rows.push(
        await measure(
          'GET /dashboard/parcels (signed in)',
          `${BASE}/dashboard/parcels`,
          { cookie },
          2,
        ),
      );
    }

    // The staff table at scale (BENCH_PARCELS=100000): a new search each time, a sort by another
    // column, and the last page, with the two connections of a couple of staff at once.
    if (cookie) {
      let tableSearches = 0;
      rows.push(
        await measure(
          'table: search (a new one each time)',
          `${BASE}/dashboard/parcels`,
          { cookie },
          2,
          () =>
            `/dashboard/parcels?search=${encodeURIComponent(`${names[tableSearches % 10]} sender ${tableSearches++ % 997}`)}`,
        ),
      );
      rows.push(
        await measure(
          'table: sorted by recipient, descending',
          `${BASE}/dashboard/parcels?sort=recipient&order=desc`,
          { cookie },
          2,
        ),
      );
      const lastPage = Math.max(1, Math.ceil(PARCELS / 50));
      rows.push(
        await measure(
          `table: last page (${lastPage})`,
          `${BASE}/dashboard/parcels?page=${lastPage}`,
          { cookie },
          2,
        ),
      );
    }
    // The delivery performance report over 30 days, computed by the database (p99 < 500 ms at
    // BENCH_PARCELS=100000 BENCH_ONLY=report).
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    rows.push(
      await measure(
        'report: delivery performance, 30 days by day',
        `${BASE}/api/reports/delivery-performance?from=${day(30)}&to=${day(0)}&groupBy=day`,
        { authorization: `Bearer ${token}` },
        2,
      ),
    );
    // The depot's morning: each scan moves another parcel out for delivery, which e-mails its
    // recipient (the app processes' workers write the e-mails to the outbox meanwhile). Once
    // every parcel is out, the next round scans them at another dock. Last, so that no other row
    // runs beside the e-mails the scans leave queued.
    let scans = 0;
    rows.push(
      await measure(
        'POST /api/scans (a new parcel each time)',
        `${BASE}/api/scans`,
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        CONNECTIONS,
        undefined,
        {
          method: 'POST',
          nextBody: () => {
            const n = scans++;
            return JSON.stringify({
              trackingNumber: scannable[n % scannable.length],
              status: 'Out for Delivery',
              location: `Dock ${1 + Math.floor(n / scannable.length)}`,
            });
          },
        },
      ),
    );
    // The last row's comparison ends with one more ceiling run.
    await ceiling?.measure();
    const exported = wanted('export') ? await measureExport(server, token) : null;

    if (ceiling) {
      const runs = ceiling.runs;
      const mean = runs.reduce((sum, rps) => sum + rps, 0) / runs.length;
      console.log(
        `\n${PARCELS} parcels, ${DURATION} s per endpoint after ${WARMUP} s of warm-up, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)} at the start`,
      );
      console.log(
        `Ceiling (node:http + one findOne, ${CONNECTIONS} connections), measured ${runs.length} times, before each row and after the last: ` +
          `${Math.round(mean)} req/s on average, from ${Math.min(...runs)} to ${Math.max(...runs)}. ` +
          "Each row's share is of the mean of the runs just before and just after it.",
      );
      // The no-I/O row: what the framework serves when a route does nothing.
      const floor = rows[0]?.rps ?? 0;
      console.table(
        rows
          .filter((r): r is Row => r !== null)
          .map((r) => {
            const beside = r.ceiling ? (r.ceiling.before + r.ceiling.after) / 2 : 0;
            return {
              endpoint: r.name,
              'req/s': r.rps,
              'p50 ms': r.p50,
              'p99 ms': r.p99,
              'ceiling beside it': Math.round(beside),
              'of ceiling': beside ? `${((100 * r.rps) / beside).toFixed(0)} %` : '',
              'of no-I/O row': floor ? `${((100 * r.rps) / floor).toFixed(0)} %` : '',
              errors: r.errors,
              non2xx: r.non2xx,
            };
          }),
      );
    }
    if (exported) {
      console.log(
        `CSV export of ${PARCELS} parcels: ${exported.rows} rows, ${(exported.bytes / 1024 / 1024).toFixed(1)} MB ` +
          `in ${exported.seconds.toFixed(1)} s; server memory (RSS, largest process) ` +
          `${exported.rssBefore.toFixed(0)} MB before, at most ${exported.rssPeak.toFixed(0)} MB during`,
      );
    }
    const others = await demoTrackingNumbers(token);
    const parcelId = await parcelOutForDelivery(token);
    const weights = [];
    for (const { page, name, budget, signedIn } of PAGE_BUDGETS(trackingNumber, others, parcelId))
      weights.push(await pageWeight(page, budget, signedIn ? cookie : '', name));
    console.log('Compressed bytes a browser downloads per page, against its budget:');
    console.table(weights);
    if (weights.some((w) => w.result !== 'pass')) process.exitCode = 1;
    printCapacity(rows);
  } finally {
    await stopServer(server);
    await ceilingServer?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
