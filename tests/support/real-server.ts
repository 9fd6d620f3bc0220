import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import makeFetchCookie from 'fetch-cookie';
import { createApp } from '../../server/index.js';
import { parsePage } from './html';

/**
 * The production build served in this test file's process by server/index.js, as server.js
 * serves it, on a free port of 127.0.0.1 and against this file's database, with an admin account:
 * for checks of what goes over the wire (whole pages, headers, the API from outside) that need no
 * browser. Needs `npm run build` first (`npm run test:all` builds before the suites run).
 */

type Entry = {
  ready(): Promise<void>;
  startWorkers(): void;
  shutdown(): Promise<void>;
  bodyLimit(): number;
  uploadBodyLimit(): number;
  trustProxy(): false | number | string[];
  metricsToken(): string | undefined;
  requestLogging(): Pick<Parameters<typeof createApp>[0], 'logger' | 'requestContext'>;
};

export type RealServer = {
  base: string;
  build: ServerBuild;
  admin: { username: string; password: string };
  /** `fetch` on this server without following redirects; `json` is sent as a JSON body. */
  request(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** A page's answer and its HTML parsed, as a browser receives it before any script runs. */
  page(pathname: string, init?: RequestInit): Promise<{ response: Response; document: Document }>;
  /** A client that keeps cookies and follows redirects as a browser does. */
  visitor(): (pathname: string, init?: RequestInit) => Promise<Response>;
  /** The admin's session cookie from the staff sign-in form. */
  signInCookie(): Promise<string>;
  /** The admin's bearer token from `POST /api/auth/login`. */
  apiToken(): Promise<string>;
  close(): Promise<void>;
};

const buildDir = path.resolve(process.env.BUILD_DIR || 'build');

/**
 * `env` is set before the build loads, since the build reads its configuration once. `worker`
 * runs the job worker beside the server, as server.js does, for e-mails and webhooks.
 */
export async function startRealServer({
  env = {},
  worker = false,
  admin = { username: 'admin', password: 'real-server-password' },
}: {
  env?: Record<string, string>;
  worker?: boolean;
  admin?: { username: string; password: string };
} = {}): Promise<RealServer> {
  Object.assign(process.env, env);
  const file = path.join(buildDir, 'index.js');
  if (!fs.existsSync(file)) throw new Error('No server build: run `npm run build` first.');
  const build = (await import(pathToFileURL(file).href)) as ServerBuild & {
    entry: { module: Entry };
  };
  const entry = build.entry.module;
  await entry.ready();
  const app = createApp({
    build,
    buildDir,
    mode: 'production',
    trustProxy: entry.trustProxy(),
    bodyLimit: entry.bodyLimit(),
    uploadBodyLimit: entry.uploadBodyLimit(),
    metricsToken: entry.metricsToken(),
    ...entry.requestLogging(),
  });
  const server = await new Promise<http.Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  if (worker) entry.startWorkers();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { createUser } = await import('~/models/user.server');
  await createUser({ ...admin, name: 'Test Admin', role: 'admin' });

  const request: RealServer['request'] = (pathname, { json, ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (json !== undefined && !headers.has('content-type'))
      headers.set('content-type', 'application/json');
    return fetch(`${base}${pathname}`, {
      redirect: 'manual',
      ...init,
      headers,
      body: json === undefined ? init.body : JSON.stringify(json),
    });
  };

  let token: Promise<string> | undefined;
  let cookie: Promise<string> | undefined;
  return {
    base,
    build,
    admin,
    request,
    async page(pathname, init) {
      const response = await request(pathname, init);
      return { response, document: parsePage(await response.text()) };
    },
    visitor() {
      const browserFetch = makeFetchCookie(fetch);
      return (pathname, init) => browserFetch(`${base}${pathname}`, init);
    },
    apiToken() {
      token ??= request('/api/auth/login', { method: 'POST', json: admin }).then(async (res) => {
        if (res.status !== 200) throw new Error(`Sign-in answered ${res.status}`);
        return ((await res.json()) as { token: string }).token;
      });
      return token;
    },
    signInCookie() {
      cookie ??= request('/management/access', {
        method: 'POST',
        headers: { origin: base },
        body: new URLSearchParams(admin),
      }).then((res) => {
        const value = res.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        if (!value.includes('__session=')) throw new Error(`Sign-in answered ${res.status}`);
        return value;
      });
      return cookie;
    },
    async close() {
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
      await entry.shutdown();
    },
  };
}

/** The server started as startRealServer starts it, and the admin's API bearer header. */
export async function startRealServerWithAuth() {
  const server = await startRealServer();
  return { server, auth: { authorization: `Bearer ${await server.apiToken()}` } };
}
