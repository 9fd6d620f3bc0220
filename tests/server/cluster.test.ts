import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/small-server';

/**
 * server.js with two app processes: the limits must hold across them, a process that dies is
 * replaced, and SIGTERM stops everything. Requests go over fresh connections, which the cluster
 * hands to its processes in turn. Needs `npm run build` first.
 *
 * On the in-memory engine the server starts its own embedded database, as it does on a machine
 * without MONGODB_URI. When the suites run on a MongoDB, the server uses this file's database
 * there instead, and seeds its admin as it would on a first start (SEED_DEMO).
 */
const external = inject('externalMongo');
const DATA_DIR = path.join(process.env.DATA_DIR!, 'cluster-data');
const ADMIN = { username: 'clusteradmin', password: 'cluster-admin-password' };

let PORT = 0;
let server: ChildProcess;
let output = '';

function serverJs(env: Record<string, string>) {
  return spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(PORT),
      MONGODB_URI: external ? process.env.MONGODB_URI : '',
      WEB_CONCURRENCY: '2',
      SESSION_SECRET: 'cluster-session-secret-0123456789',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function send(
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path: pathname,
        agent: false,
        headers: {
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The pids of the app processes the primary has forked. */
function workerPids(primary: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === primary;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch {
      // not yet
    }
    if (Date.now() > end)
      throw new Error(`Timed out waiting for ${what}. Server output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Three processes start and load the build: give them the minute waitFor allows.
beforeAll(async () => {
  PORT = await freePort();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  server = serverJs({
    DATA_DIR,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    SEED_DEMO: external ? 'true' : 'false',
    RATE_LIMIT_TRACKING_PER_MINUTE: '4',
    RATE_LIMIT_API_PER_MINUTE: '4',
    LOGIN_MAX_FAILURES: '2',
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  await waitFor(() => output.includes('listening'), 'the cluster to listen', 60_000);
}, 90_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

describe('several app processes', () => {
  it('runs two app processes beside the primary', async () => {
    expect(workerPids(server.pid!)).toHaveLength(2);
    expect((await send('GET', '/api/health')).status).toBe(200);
  });

  // On the in-memory engine it starts its own embedded database and loads the build before its
  // processes find the port taken.
  it('a second server on the taken port stops with a message instead of restarting forever', async () => {
    const dir = path.join(process.env.DATA_DIR!, 'cluster-data-second');
    fs.rmSync(dir, { recursive: true, force: true });
    const second = serverJs({ DATA_DIR: dir, SEED_DEMO: 'false' });
    let text = '';
    second.stdout!.on('data', (chunk) => (text += chunk));
    second.stderr!.on('data', (chunk) => (text += chunk));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(text).toContain(`Cannot serve on port ${PORT}`);
    expect(text).toContain('stopped before it could serve');
    expect(text).not.toContain('starting another');
    expect((await send('GET', '/api/health')).status).toBe(200);
  }, 90_000);

  it('the tracking limit counts requests from every process together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send('GET', '/api/tracking/track/ABC123456789')).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });

  it("a token's API budget counts requests from every process together", async () => {
    const login = await send('POST', '/api/auth/login', ADMIN);
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${(login.json as { token: string }).token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send('GET', '/api/auth/me', undefined, auth)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('the sign-in lockout holds whichever process answers', async () => {
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await send('POST', '/api/auth/login', {
            username: ADMIN.username,
            password: 'wrong-password',
          })
        ).status,
      ).toBe(401);
    }
    const locked = await send('POST', '/api/auth/login', ADMIN);
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({
      message: expect.stringMatching(/Too many failed sign-in attempts/),
    });
  });

  it('a process that dies is replaced and the site keeps answering', async () => {
    const [victim] = workerPids(server.pid!);
    process.kill(victim!, 'SIGKILL');
    const replaced = await waitFor(() => {
      const pids = workerPids(server.pid!);
      return pids.length === 2 && !pids.includes(victim!) ? pids : null;
    }, 'a replacement process');
    expect(replaced).toHaveLength(2);
    await waitFor(
      async () => (await send('GET', '/api/health')).status === 200,
      'health after the restart',
    );
    for (let i = 0; i < 4; i++) expect((await send('GET', '/api/health')).status).toBe(200);
  }, 60_000);

  it('SIGTERM stops the primary and every app process', async () => {
    const pids = workerPids(server.pid!);
    const exited = new Promise<number | null>((resolve) =>
      server.once('exit', (code) => resolve(code)),
    );
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
  });
});
