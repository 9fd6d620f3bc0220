/**
 * Measures the production build on the embedded database:
 *   npm run build && npm run bench
 * Starts `node server.js` on a fresh data directory holding BENCH_PARCELS parcels (default 10,000),
 * then drives it with autocannon and reports requests/s and latency percentiles, plus the
 * compressed bytes a browser downloads for every public page, each against its budget (the run
 * fails when a page is over). BENCH_ONLY=weights measures the pages alone.
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
/** BENCH_ONLY=weights: the page weights alone, no load test (nor its ceiling row). */
const WEIGHTS_ONLY = ONLY.length > 0 && ONLY.every((word) => word === 'weights');
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { username: 'bench', password: 'bench-password-123' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-bench-'));

async function seed() {
  // Fill the data directory the app will open, using the same engine standalone.
  const engine = await startEmbeddedMongo({ dir: path.join(dataDir, 'db') });
  process.env.MONGODB_URI = `${engine.uri.replace(/\/?$/, '/')}courier`;
  const { Parcel, generateTrackingNumber } = await import('../app/models/parcel.server');
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
  const statuses = [
    'Pending',
    'In Transit',
    'Out for Delivery',
    'Delivered',
    'Picked Up',
    'Failed',
    'Returned',
  ];
  let trackingNumber = '';
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
        status: statuses[n % statuses.length],
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
  }
  console.log(`seeded ${PARCELS} parcels in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await mongoose.disconnect();
  return { trackingNumber, searchTerm: 'olivia sender 12', engine };
}

function startServer(script = 'server.js', extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      MONGODB_URI: '',
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-session-secret-0123456789',
      RATE_LIMIT_TRACKING_PER_MINUTE: '100000000',
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

type Row = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
  /** Gives each request its own path (e.g. a different search every time). */
  nextPath?: () => string,
): Promise<Row | null> {
  const wanted =
    !WEIGHTS_ONLY &&
    (name.startsWith('ceiling') || !ONLY.length || ONLY.some((w) => name.includes(w)));
  if (!wanted) return null;
  const requests = nextPath
    ? [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: nextPath() }) }]
    : undefined;
  // Unmeasured first: the app processes compile their hot paths as they run (JIT), so this
  // gives the steady-state rate rather than the first seconds after a start.
  await autocannon({ url, connections, duration: WARMUP, headers, requests });
  const result = await autocannon({ url, connections, duration: DURATION, headers, requests });
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
 * What a browser downloads for a page: the HTML and everything it references (stylesheets,
 * scripts, module preloads, icons), as compressed bytes of the bodies the server sends.
 */
const KB = 1000;
const PAGE_BUDGETS = (trackingNumber: string, others: string[]) => [
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
];

/** The body's bytes as sent with `Accept-Encoding: gzip` (undecoded), and its text. */
function download(pathname: string): Promise<{ wire: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(BASE + pathname, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
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

async function pageWeight(pathname: string, budget: number) {
  const { wire: html, text } = await download(pathname);
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
  const inlineScripts = tags.filter((t) => t.startsWith('<script') && !/\bsrc=/.test(t)).length;
  return {
    page: pathname.length > 40 ? `${pathname.slice(0, 37)}...` : pathname,
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

async function stopServer(server: ChildProcess) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** The ceiling row: a bare node:http server doing one driver findOne per lookup, same database. */
async function measureCeiling(engineUri: string, trackingNumber: string) {
  const ceiling = await startServer('scripts/bench-ceiling.js', {
    MONGODB_URI: `${engineUri.replace(/\/?$/, '/')}courier`,
  });
  try {
    return await measure(
      'ceiling: node:http + findOne',
      `${BASE}/api/tracking/track/${trackingNumber}`,
    );
  } finally {
    await stopServer(ceiling);
  }
}

async function main() {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` first.');
  const { trackingNumber, searchTerm, engine } = await seed();
  // Measured first, on the engine that seeded the data; the app then opens the same directory.
  const ceiling = WEIGHTS_ONLY
    ? null
    : await measureCeiling(engine.uri, trackingNumber).finally(() => engine.stop());
  if (WEIGHTS_ONLY) await engine.stop();
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

    const rows: (Row | null)[] = [ceiling];
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

    if (!WEIGHTS_ONLY) {
      console.log(
        `\n${PARCELS} parcels, ${DURATION} s per endpoint after ${WARMUP} s of warm-up, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)} at the start`,
      );
      console.table(
        rows
          .filter((r): r is Row => r !== null)
          .map((r) => ({
            endpoint: r.name,
            'req/s': r.rps,
            'p50 ms': r.p50,
            'p99 ms': r.p99,
            'of ceiling': ceiling ? `${((100 * r.rps) / ceiling.rps).toFixed(0)} %` : '',
            errors: r.errors,
            non2xx: r.non2xx,
          })),
      );
    }
    const others = await demoTrackingNumbers(token);
    const weights = [];
    for (const { page, budget } of PAGE_BUDGETS(trackingNumber, others))
      weights.push(await pageWeight(page, budget));
    console.log('Compressed bytes a browser downloads per page, against its budget:');
    console.table(weights);
    if (weights.some((w) => w.result !== 'pass')) process.exitCode = 1;
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
