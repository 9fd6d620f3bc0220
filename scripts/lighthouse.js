/**
 * Lighthouse on the production build, the mobile profile, in Debian's Chromium:
 *   npm run build && npm run lighthouse
 * Starts `node server.js` on a fresh data directory (the demo parcels are seeded on first start),
 * runs Lighthouse on the public pages that matter most and on the staff sign-in page, and prints
 * the four category scores, LCP, CLS and the transfer size of each, against the targets: 100 in
 * performance, accessibility and best practices on public pages, 100 in SEO on indexable ones, and
 * 100 in accessibility and best practices on the sign-in page. Exits 1 when a target is missed.
 *
 * Needs the `lighthouse` package (a dev dependency), which brings chrome-launcher with it. It is
 * pinned to 12.8: Lighthouse 13 and the puppeteer-core it brings want Node 22, and `npm install`
 * on the Node the README names would warn about them.
 * CHROMIUM_PATH overrides /usr/bin/chromium; LIGHTHOUSE_PORT the app's port (3457).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3457);
const BASE = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN = { username: 'lighthouse', password: 'lighthouse-password-123' };
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Which scores must be 100 on each page. */
const PUBLIC_INDEXED = ['performance', 'accessibility', 'best-practices', 'seo'];
const PUBLIC_RESULT = ['performance', 'accessibility', 'best-practices'];
const STAFF = ['accessibility', 'best-practices'];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-lighthouse-'));

function startServer() {
  const child = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      MONGODB_URI: '',
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '1',
      SESSION_SECRET: 'lighthouse-session-secret-0123456789',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('listening')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function stopServer(server) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** A seeded demo parcel's number, found through the staff API. */
async function demoTrackingNumber() {
  const login = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = await login.json();
  const list = await fetch(`${BASE}/api/parcels?status=In%20Transit&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { parcels } = await list.json();
  if (!parcels?.length) throw new Error('No demo parcel in transit to track');
  return parcels[0].trackingNumber;
}

async function audit(url, port) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES,
  });
  const { categories, audits } = result.lhr;
  const score = (id) => Math.round((categories[id]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    'LCP ms': Math.round(audits['largest-contentful-paint'].numericValue),
    CLS: Number(audits['cumulative-layout-shift'].numericValue.toFixed(3)),
    'transfer bytes': Math.round(audits['total-byte-weight'].numericValue),
    failing: CATEGORIES.flatMap((id) =>
      Object.values(categories[id].auditRefs)
        .filter((ref) => ref.weight > 0 && (audits[ref.id].score ?? 1) < 1)
        .map((ref) => ref.id),
    ),
  };
}

async function main() {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` first.');
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const trackingNumber = await demoTrackingNumber();
    const pages = [
      { path: '/', targets: PUBLIC_INDEXED },
      { path: `/track?number=${trackingNumber}`, targets: PUBLIC_RESULT },
      { path: '/services', targets: PUBLIC_INDEXED },
      { path: '/contact', targets: PUBLIC_INDEXED },
      { path: '/management/access', targets: STAFF },
    ];
    const rows = [];
    for (const page of pages) {
      const scores = await audit(BASE + page.path, chrome.port);
      const missed = page.targets.filter((id) => scores[id] < 100);
      rows.push({
        page: page.path,
        ...scores,
        failing: scores.failing.join(', '),
        targets: missed.length ? `MISSED: ${missed.join(', ')}` : 'met',
      });
    }
    console.log('Lighthouse, mobile profile:');
    console.table(rows);
    if (rows.some((row) => row.targets !== 'met')) process.exitCode = 1;
  } finally {
    await chrome.kill();
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
