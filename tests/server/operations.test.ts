import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/small-server';

/**
 * What an operator of server.js sees, with two app processes as in production: the first start's
 * staff login before anything else, one JSON log line per request on standard output with no
 * secret in it, and GET /metrics reporting every process's requests, the job queue and the
 * database, for the METRICS_TOKEN only. The worker is off, so that an e-mail queued stays due.
 * Needs `npm run build` first.
 */
const external = inject('externalMongo');
const DATA_DIR = path.join(process.env.DATA_DIR!, 'operations-data');
const ADMIN = { username: 'opsadmin', password: 'ops-admin-password-1' };
const METRICS_TOKEN = 'metrics-token-for-the-test-0123';

let base = '';
let server: ChildProcess;
let stdout = '';
let output = '';

async function waitFor(check: () => boolean, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}. Output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A request over a connection of its own, which the cluster hands to its processes in turn. */
function send(pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('connection', 'close');
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${base}${pathname}`, {
    ...init,
    headers,
    redirect: 'manual',
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });
}

type LogLine = Record<string, unknown> & { requestId?: string; pid: number };

/** The JSON lines on standard output so far. */
function logLines(): LogLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The log lines of the requests sent with `x-request-id: <id>`, once each has one. */
async function linesOf(ids: string[]) {
  await waitFor(
    () => ids.every((id) => logLines().some((line) => line.requestId === id)),
    `the log lines of ${ids.join(', ')}`,
    10_000,
  );
  return logLines().filter((line) => ids.includes(String(line.requestId)));
}

async function metrics() {
  const response = await send('/metrics', {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
  return response.text();
}

/** A sample's value: `name{labels} value`, the labels written as Prometheus writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      MONGODB_URI: external ? process.env.MONGODB_URI : '',
      SEED_DEMO: external ? 'true' : 'false',
      WEB_CONCURRENCY: '2',
      JOBS_WORKER: 'false',
      DATA_DIR,
      SESSION_SECRET: 'operations-session-secret-0123456789',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      METRICS_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  server.stderr!.on('data', (chunk) => (output += chunk));
  await waitFor(() => /listening.*\(2 processes\)/.test(stdout), 'the cluster to listen');
}, 90_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

describe('operating server.js', () => {
  it('prints the staff login first, then that it listens, then only JSON lines', () => {
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines[0]).toBe(
      'First start on an empty database: created the staff account and demo data.',
    );
    const listening = lines.findIndex((line) => line.includes('listening'));
    expect(lines.slice(1, listening).every((line) => line.startsWith('  '))).toBe(true);
    expect(lines.slice(listening + 1).every((line) => line.startsWith('{'))).toBe(true);
  });

  it('answers /metrics only to its bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', METRICS_TOKEN]) {
      const response = await send('/metrics', { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain('http_requests_total');
    }
  });

  it('logs each request once, with its id, route, status, duration and user, and no secret', async () => {
    const login = await send('/api/auth/login', {
      method: 'POST',
      json: ADMIN,
      headers: { 'x-request-id': 'ops-login' },
    });
    const { token, user } = (await login.json()) as { token: string; user: { id: string } };
    const me = await send('/api/auth/me?token=a-link-token-123', {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'ops-me' },
    });
    expect(me.status).toBe(200);
    const page = await send('/management/access', {
      method: 'POST',
      headers: { origin: base, 'x-request-id': 'ops-form' },
      body: new URLSearchParams(ADMIN),
    });
    const cookie = page.headers.getSetCookie().join('; ');
    expect(cookie).toContain('__session=');
    const track = await send('/api/tracking/track/ZZZ123456789', {
      headers: { 'x-request-id': 'ops-track', cookie },
    });

    const lines = await linesOf(['ops-login', 'ops-me', 'ops-form', 'ops-track']);
    expect(lines).toHaveLength(4);
    const byId = Object.fromEntries(lines.map((line) => [line.requestId, line]));
    expect(byId['ops-me']).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/auth/me?token=[Redacted]' },
      route: '/api/auth/me',
      res: { statusCode: 200 },
      durationMs: expect.any(Number),
      userId: user.id,
    });
    expect(byId['ops-login']).toMatchObject({ route: '/api/auth/login', userId: user.id });
    expect(byId['ops-track']).toMatchObject({
      route: '/api/tracking/track/:trackingNumber',
      res: { statusCode: track.status },
    });
    for (const secret of [
      ADMIN.password,
      token,
      'a-link-token-123',
      cookie.split('=')[1]!.split(';')[0]!,
    ])
      expect(stdout).not.toContain(secret);
  });

  it("reports every process's requests, the job queue and the database, labelled by pattern", async () => {
    const token = (
      (await (await send('/api/auth/login', { method: 'POST', json: ADMIN })).json()) as {
        token: string;
      }
    ).token;
    const auth = { authorization: `Bearer ${token}` };
    const inTransit = (await (
      await send('/api/parcels?status=In%20Transit&limit=1', { headers: auth })
    ).json()) as { parcels: Array<{ trackingNumber: string }> };
    const trackingNumber = inTransit.parcels[0]!.trackingNumber;
    const before = await metrics();
    const series = (status: number) =>
      `http_requests_total{route="/api/tracking/track/:trackingNumber",method="GET",status="${status}"}`;
    const ids = Array.from({ length: 6 }, (_, i) => `ops-count-${i}`);
    for (const id of ids)
      expect(
        (await send(`/api/tracking/track/${trackingNumber}`, { headers: { 'x-request-id': id } }))
          .status,
      ).toBe(200);
    // Both app processes served some of them.
    expect(new Set((await linesOf(ids)).map((line) => line.pid)).size).toBe(2);
    // An e-mail queued with no worker running stays due.
    const subscribed = await send(`/api/tracking/track/${trackingNumber}/subscriptions`, {
      method: 'POST',
      json: { email: 'reader@example.com' },
    });
    expect(subscribed.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const after = await metrics();
    expect((sample(after, series(200)) ?? 0) - (sample(before, series(200)) ?? 0)).toBe(6);
    expect(
      sample(
        after,
        'http_request_duration_seconds_count{route="/api/tracking/track/:trackingNumber",method="GET",status="200"}',
      ),
    ).toBe(sample(after, series(200)));
    expect(sample(after, 'courier_job_queue_depth{kind="email.send",state="due"}')).toBe(1);
    expect(sample(after, 'courier_job_queue_depth{kind="webhook.deliver",state="due"}')).toBe(0);
    expect(
      sample(after, 'courier_job_queue_oldest_age_seconds{kind="email.send"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'courier_db_command_duration_seconds_count{command="find"}'),
    ).toBeGreaterThan(0);
    expect(sample(after, 'courier_messages_total{channel="email",outcome="sent"}')).toBe(0);
    expect(after).toMatch(/^process_cpu_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    // Labels name patterns, never what a client sent.
    expect(after).not.toContain(trackingNumber);
    expect(after).not.toContain('reader@example.com');
  });
});
