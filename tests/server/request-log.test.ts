import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { json } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, noteRequestUser, reportError, requestContext } from '~/lib/logger.server';
import { createApp } from '../../server/index.js';
import { until } from '../support/jobs';
import { smallBuild } from '../support/small-server';

/**
 * The request log of server/index.js on a small build: one JSON line per request, with what an
 * operator needs and nothing a client's secrets are in. (tests/server/operations.test.ts reads
 * the same lines from server.js's standard output.)
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-log-'));
fs.mkdirSync(path.join(dir, 'build', 'assets'), { recursive: true });
fs.mkdirSync(path.join(dir, 'public'), { recursive: true });

const lines: string[] = [];
const destination = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

const build = smallBuild(dir, (error: unknown) => reportError(error), {
  thing: [
    'things/:thingId',
    {
      loader: ({ params }: { params: { thingId: string } }) => {
        noteRequestUser('user-42');
        return json({ id: params.thingId });
      },
    },
  ],
  fail: [
    'fail',
    {
      loader: () => {
        throw new Error('secret internals');
      },
    },
  ],
});

let server: http.Server;
let base = '';

beforeAll(async () => {
  const app = createApp({
    build,
    buildDir: path.join(dir, 'build'),
    publicDir: path.join(dir, 'public'),
    logger: createLogger({ level: 'info', destination }),
    requestContext,
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends a request and returns its answer and the one log line it made. */
async function logged(pathname: string, init: RequestInit = {}) {
  const before = lines.length;
  const response = await fetch(`${base}${pathname}`, init);
  const body = await response.text();
  await until(async () => lines.length > before);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(lines.length - before).toBe(1);
  const text = lines[before]!;
  return { response, body, text, line: JSON.parse(text) as Record<string, unknown> };
}

describe('the request log', () => {
  it('writes one JSON line per request: id, method, URL, route, status, duration and user', async () => {
    const { response, line } = await logged('/things/ABC123456789?page=2');
    expect(response.status).toBe(200);
    expect(line).toMatchObject({
      level: 30,
      requestId: response.headers.get('x-request-id'),
      req: { method: 'GET', url: '/things/ABC123456789?page=2' },
      route: '/things/:thingId',
      res: { statusCode: 200 },
      durationMs: expect.any(Number),
      userId: 'user-42',
      msg: 'request completed',
    });
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
  });

  it('keeps the request id the client sent', async () => {
    const { line } = await logged('/things/1', { headers: { 'x-request-id': 'client-trace-7' } });
    expect(line.requestId).toBe('client-trace-7');
  });

  it('labels a path no route answers with one fixed label', async () => {
    const { line } = await logged('/nothing/here/ABC123456789');
    expect(line.route).toBe('unmatched');
  });

  it('writes no cookie, authorization, token or e-mail address, and no unlisted query value', async () => {
    const { text, line } = await logged(
      '/things/1?token=link-token-123&search=jane%40example.com&sort=createdAt',
      {
        headers: {
          cookie: '__session=session-secret-456',
          authorization: 'Bearer sk_live_secret789',
        },
      },
    );
    expect(line.req).toEqual({
      method: 'GET',
      url: '/things/1?token=[Redacted]&search=[Redacted]&sort=createdAt',
    });
    for (const secret of ['link-token-123', 'jane', 'session-secret-456', 'sk_live_secret789'])
      expect(text).not.toContain(secret);
  });

  it('logs a failure as an error line with its stack, which the client never sees', async () => {
    const { response, body, line } = await logged('/fail');
    expect(response.status).toBe(500);
    expect(body).not.toContain('secret internals');
    expect(line).toMatchObject({
      level: 50,
      route: '/fail',
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'secret internals' },
    });
    expect((line.err as { stack: string }).stack).toMatch(/secret internals\n\s+at /);
  });
});
