import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { json } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiRoute } from '~/http/api.server';
import { declared } from '~/http/api-operation.server';
import { createApp, setTimeouts } from '../../server/index.js';
import { smallBuild } from '../support/small-server';

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-'));
fs.mkdirSync(path.join(dir, 'build', 'assets', '_shared'), { recursive: true });
fs.mkdirSync(path.join(dir, 'public'), { recursive: true });
fs.writeFileSync(path.join(dir, 'build', 'assets', '_shared', 'chunk-ABC.js'), 'export const x=1;');
// As the build leaves them: a brotli and a gzip copy beside each script.
execFileSync(process.execPath, ['scripts/precompress.js', path.join(dir, 'build', 'assets')]);
fs.writeFileSync(path.join(dir, 'public', 'favicon.svg'), '<svg/>');

const LIMIT = 64 * 1024;
const UPLOAD_LIMIT = 4 * LIMIT;
let received = 0;
let mutations = 0;
let apiBodyReads = 0;

/** A Remix build with resource routes, enough to drive the adapter end to end. */
const build = smallBuild(
  dir,
  // As the app's entry does: a body cut off at the limit has already been answered, and a
  // client that went away hears nothing.
  (error: Error, { request }: { request: Request }) => {
    if (request.signal.aborted) return;
    if (error.name !== 'PayloadTooLargeError') console.error(error);
  },
  {
    echo: [
      'echo',
      {
        action: async ({ request, context }: { request: Request; context: object }) => {
          const text = await request.text();
          received += text.length;
          return json({ length: text.length, context, method: request.method });
        },
        loader: ({ request, context }: { request: Request; context: object }) =>
          json({ url: request.url, context, big: 'x'.repeat(4000) }),
      },
    ],
    import: [
      'api/parcels/import',
      {
        action: async ({ request }: { request: Request }) => {
          const text = await request.text();
          received += text.length;
          return json({ length: text.length });
        },
      },
    ],
    cookies: [
      'cookies',
      {
        loader: () => {
          const headers = new Headers();
          headers.append('Set-Cookie', 'a=1; Path=/');
          headers.append('Set-Cookie', 'b=2; Path=/');
          return json({ ok: true }, { headers });
        },
      },
    ],
    dashboard: [
      'dashboard',
      {
        loader: () => json({ staff: true }, { headers: { 'Cache-Control': 'public, max-age=60' } }),
        action: async () => {
          mutations += 1;
          return json({ changed: true });
        },
      },
    ],
    'api-thing': [
      'api/thing',
      {
        loader: () => json({ thing: true }),
        action: async () => {
          mutations += 1;
          return json({ changed: true }, { status: 201 });
        },
      },
    ],
    'not-modified': [
      'not-modified',
      {
        loader: () => new Response(null, { status: 304, headers: { ETag: 'W/"x"' } }),
      },
    ],
    'public-lookup': [
      'api/tracking/track',
      {
        action: async () => {
          mutations += 1;
          return json({ results: [] });
        },
      },
    ],
    subscribe: [
      'api/tracking/track/:trackingNumber/subscriptions',
      {
        action: async () => {
          mutations += 1;
          return json({ message: 'ok' }, { status: 202 });
        },
      },
    ],
    unsubscribe: [
      'subscriptions/one-click',
      {
        action: async () => {
          mutations += 1;
          return json({ unsubscribed: true });
        },
      },
    ],
    // A route that sets security headers of its own, as a file or a print page does.
    'own-headers': [
      'own-headers',
      {
        loader: () =>
          new Response('<p>a receipt</p>', {
            headers: {
              'Content-Type': 'text/html',
              'X-Content-Type-Options': 'nosniff',
              'Content-Security-Policy': "default-src 'none'",
            },
          }),
      },
    ],
    // An API route that reads a JSON body, answered through the app's own API error handling.
    'api-body': [
      'api/body',
      apiRoute({
        POST: declared(
          {
            access: 'public',
            summary: 'Reads a body',
            description: 'Counts the bytes of the body it reads.',
            responses: { 200: { schema: { type: 'object' } } },
          },
          async ({ request }) => {
            apiBodyReads += 1;
            return json({ length: (await request.text()).length });
          },
        ),
      }),
    ],
    fail: [
      'fail',
      {
        loader: () => {
          throw new Error('secret internals');
        },
      },
    ],
  },
  { future: { v3_lazyRouteDiscovery: false }, isSpaMode: false, basename: undefined },
);

function start(trustProxy: false | number | string[]) {
  const app = createApp({
    build,
    buildDir: path.join(dir, 'build'),
    publicDir: path.join(dir, 'public'),
    trustProxy,
    bodyLimit: LIMIT,
    uploadBodyLimit: UPLOAD_LIMIT,
    publicUrl: 'https://courier.example',
  });
  return new Promise<{ server: http.Server; port: number }>((resolve) => {
    const server = setTimeouts(
      app.listen(0, '127.0.0.1', () =>
        resolve({ server, port: (server.address() as AddressInfo).port }),
      ),
    );
  });
}

let server: http.Server;
let port: number;

beforeAll(async () => {
  ({ server, port } = await start(false));
});

afterAll(() => {
  server.close();
});

function send(
  pathname: string,
  options: http.RequestOptions & { body?: string | string[]; gap?: number } = {},
  target = port,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: target, path: pathname, agent: false, ...options },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    const pieces = typeof options.body === 'string' ? [options.body] : (options.body ?? []);
    (async () => {
      for (const piece of pieces) {
        if (req.destroyed) return;
        req.write(piece);
        if (options.gap) await new Promise((r) => setTimeout(r, options.gap));
      }
      req.end();
    })().catch(() => {});
  });
}

describe('the express server', () => {
  it('hands loaders and actions the request, its body and the client address', async () => {
    const get = await send('/echo?x=1');
    expect(get.status).toBe(200);
    expect(JSON.parse(get.body)).toMatchObject({
      url: `http://127.0.0.1:${port}/echo?x=1`,
      context: { clientAddress: expect.stringMatching(/127\.0\.0\.1/) },
    });
    const post = await send('/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: ['hello ', 'world'],
    });
    expect(JSON.parse(post.body)).toMatchObject({ length: 11, method: 'POST' });
  });

  it('gives every answer an X-Request-Id, echoing a valid one the client sent', async () => {
    const fresh = await send('/echo');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(fresh.body).context.requestId).toBe(fresh.headers['x-request-id']);
    const again = await send('/echo');
    expect(again.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    const echoed = await send('/echo', { headers: { 'x-request-id': 'client-trace.42:a' } });
    expect(echoed.headers['x-request-id']).toBe('client-trace.42:a');
    // Spaces, separators or a very long value are not echoed: a fresh id replaces them.
    for (const bad of ['two words', 'a'.repeat(200), '<script>']) {
      const replaced = await send('/echo', { headers: { 'x-request-id': bad } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Answers the server gives itself carry one too.
    const missing = await send('/build/_shared/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes the client address and protocol from a trusted proxy only', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 10.0.0.1', 'x-forwarded-proto': 'https' };
    const direct = JSON.parse((await send('/echo', { headers })).body);
    expect(direct.context.clientAddress).not.toBe('203.0.113.9');
    expect(direct.url).toMatch(/^http:/);
    const proxied = await start(1);
    try {
      const behind = JSON.parse((await send('/echo', { headers }, proxied.port)).body);
      expect(behind.context.clientAddress).toBe('10.0.0.1');
      expect(behind.url).toMatch(/^https:/);
    } finally {
      proxied.server.close();
    }
  });

  it('behind one proxy, counts the address the proxy saw, whatever the client wrote before it', async () => {
    const proxied = await start(1);
    const listed = await start(['loopback', '10.0.0.0/8']);
    const addressSeen = async (forwardedFor: string, target: number) =>
      JSON.parse(
        (await send('/echo', { headers: { 'x-forwarded-for': forwardedFor } }, target)).body,
      ).context.clientAddress;
    try {
      // The proxy appends the address it was reached from to whatever the client sent.
      for (const forged of ['198.51.100.1', '198.51.100.2, 198.51.100.3', 'not-an-address'])
        expect(await addressSeen(`${forged}, 203.0.113.9`, proxied.port)).toBe('203.0.113.9');
      // Listed proxies: every trusted hop is skipped, the first other one is the client.
      expect(await addressSeen('198.51.100.1, 203.0.113.9, 10.1.2.3', listed.port)).toBe(
        '203.0.113.9',
      );
    } finally {
      proxied.server.close();
      listed.server.close();
    }
  });

  it('keeps an idle keep-alive connection open past the 5 s Node defaults to, so a client reusing it is served', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; localPort: number }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/echo', agent }, (res) => {
            const localPort = res.socket.localPort!;
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, localPort }));
          })
          .on('error', reject);
      });
    try {
      const first = await get();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(second.status).toBe(200);
      expect(second.localPort).toBe(first.localPort);
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('gzips for a client that accepts it and keeps every Set-Cookie', async () => {
    const big = await send('/echo', { headers: { 'accept-encoding': 'gzip' } });
    expect(big.headers['content-encoding']).toBe('gzip');
    const cookies = await send('/cookies');
    expect(cookies.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('serves build assets for a year and public files for an hour', async () => {
    const asset = await send('/build/_shared/chunk-ABC.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe('export const x=1;');
    // Compressed once at build time: brotli where the browser takes it, else gzip.
    for (const [accepts, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const compressed = await send('/build/_shared/chunk-ABC.js', {
        headers: { 'accept-encoding': accepts },
      });
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers.vary).toMatch(/Accept-Encoding/i);
      expect(compressed.headers['content-type']).toMatch(/javascript/);
      expect(compressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const icon = await send('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expect((await send('/build/_shared/missing.js')).status).toBe(404);
  });

  it("leaves /metrics to the routes (the site's 404) without a METRICS_TOKEN", async () => {
    // This build's error handler reports the router's 404, which the app's own leaves out.
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reply = await send('/metrics', { headers: { authorization: 'Bearer anything' } });
    error.mockRestore();
    expect(reply.body).toBe('no documents here');
  });

  it('answers 500 without details when a loader fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reply = await send('/fail');
    error.mockRestore();
    expect(reply.status).toBe(500);
    expect(reply.body).not.toMatch(/secret internals|at .*\.ts/);
  });

  it('refuses a body that declares more than the limit with 413, reading none of it', async () => {
    const before = received;
    const reply = await send('/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': String(LIMIT + 1) },
      body: 'x'.repeat(100),
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error).toMatch(/larger than/);
    expect(received).toBe(before);
  });

  it('stops a chunked body at the limit with 413 and keeps serving others', async () => {
    const before = received;
    const chunk = 'y'.repeat(16 * 1024);
    const started = Date.now();
    const [big, health] = await Promise.all([
      send('/echo', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        body: Array.from({ length: 400 }, () => chunk),
        gap: 1,
      }),
      send('/echo'),
    ]);
    expect(big.status).toBe(413);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(health.status).toBe(200);
    expect(received).toBe(before);
    // A body within the limit still goes through whole.
    const ok = await send('/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      body: [chunk, chunk, chunk],
    });
    expect(JSON.parse(ok.body).length).toBe(3 * chunk.length);
  });

  it('lets the upload routes take bodies up to their own larger limit, and no more', async () => {
    const body = 'z'.repeat(2 * LIMIT);
    const headers = { 'content-type': 'text/csv' };
    // Past the default limit: refused on an ordinary route, taken whole by the import.
    expect((await send('/echo', { method: 'POST', headers, body })).status).toBe(413);
    const taken = await send('/api/parcels/import', { method: 'POST', headers, body });
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body).length).toBe(body.length);
    const slash = await send('/api/parcels/import/', { method: 'POST', headers, body });
    expect(slash.status).not.toBe(413);

    // Past the upload limit: 413, declared or streamed.
    const before = received;
    const declared = await send('/api/parcels/import', {
      method: 'POST',
      headers: { ...headers, 'content-length': String(UPLOAD_LIMIT + 1) },
      body: 'x'.repeat(100),
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error).toBe(
      `The request body is larger than ${UPLOAD_LIMIT} bytes`,
    );
    const chunk = 'y'.repeat(16 * 1024);
    const streamed = await send('/api/parcels/import', {
      method: 'POST',
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      body: Array.from({ length: UPLOAD_LIMIT / chunk.length + 8 }, () => chunk),
      gap: 1,
    });
    expect(streamed.status).toBe(413);
    expect(received).toBe(before);
  });
});

describe('security', () => {
  const cookie = '__session=abc';

  it('sends a CSP whose scripts need the nonce that the app was handed, and the other headers', async () => {
    const reply = await send('/echo');
    const csp = String(reply.headers['content-security-policy']);
    const nonce = JSON.parse(reply.body).context.cspNonce;
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(reply.headers['strict-transport-security']).toBeUndefined();
    const second = JSON.parse((await send('/echo')).body).context.cspNonce;
    expect(second).not.toBe(nonce);
  });

  it("sends each security header once: the route's own where it sets one", async () => {
    const reply = await send('/own-headers');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['content-security-policy']).toBe("default-src 'none'");
    expect(reply.headers['x-frame-options']).toBe('DENY');
  });

  it('leaves the policy of the page a browser already holds in place on a 304', async () => {
    // The held page's inline script carries the nonce of the answer that first sent it.
    const reply = await send('/not-modified');
    expect(reply.status).toBe(304);
    expect(reply.headers['content-security-policy']).toBeUndefined();
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets other sites post to the public tracking lookup', async () => {
    const before = mutations;
    const reply = await send('/api/tracking/track', {
      method: 'POST',
      headers: { origin: 'https://shop.example', cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(200);
    expect(mutations).toBe(before + 1);
  });

  it('lets other sites ask for parcel updates, and mail providers unsubscribe in one click', async () => {
    const before = mutations;
    const subscribe = await send('/api/tracking/track/SWX123456789/subscriptions', {
      method: 'POST',
      headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
      body: '{"email":"a@example.com"}',
    });
    expect(subscribe.status).toBe(202);
    const oneClick = await send('/subscriptions/one-click?token=x', {
      method: 'POST',
      headers: {
        origin: 'https://mail.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(mutations).toBe(before + 2);
    // Only those paths: the pages' buttons must come from the site itself.
    for (const page of ['/subscriptions/confirm?token=x', '/subscriptions/unsubscribe?token=x']) {
      const refused = await send(page, {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie },
      });
      expect(refused.status).toBe(403);
    }
    const nested = await send('/api/tracking/track/SWX123456789/subscriptions/x', {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie },
    });
    expect(nested.status).toBe(403);
  });

  it('sends HSTS only when the request came over https', async () => {
    const proxied = await start(1);
    try {
      const reply = await send(
        '/echo',
        { headers: { 'x-forwarded-proto': 'https' } },
        proxied.port,
      );
      expect(reply.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      proxied.server.close();
    }
  });

  it('marks staff pages and authenticated API answers no-store, whatever the route said', async () => {
    expect((await send('/dashboard')).headers['cache-control']).toBe('no-store');
    const withToken = await send('/api/thing', { headers: { authorization: 'Bearer x' } });
    expect(withToken.headers['cache-control']).toBe('no-store');
    expect((await send('/api/thing', { headers: { cookie } })).headers['cache-control']).toBe(
      'no-store',
    );
    expect((await send('/api/thing')).headers['cache-control']).toBeUndefined();
    // Routes match whatever the case of the path.
    expect((await send('/DASHBOARD')).headers['cache-control']).toBe('no-store');
    const upper = await send('/API/THING', { headers: { authorization: 'Bearer x' } });
    expect(upper.headers['cache-control']).toBe('no-store');
  });

  it('refuses a cross-origin mutation with the session cookie, with and without ?_data', async () => {
    const before = mutations;
    const post = (pathname: string, headers: Record<string, string>) =>
      send(pathname, { method: 'POST', headers: { cookie, ...headers } });
    const page = await post('/dashboard', { origin: 'http://127.0.0.1:9999' });
    expect(page.status).toBe(403);
    const data = await post('/dashboard?_data=routes%2Fdashboard', {
      origin: 'http://evil.example',
    });
    expect(data.status).toBe(403);
    expect(JSON.parse(data.body).error).toMatch(/Cross-site/);
    expect((await post('/api/thing', { origin: 'null' })).status).toBe(403);
    expect((await post('/dashboard', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    // With the cookie and no word on where it came from: refused.
    expect((await post('/dashboard', {})).status).toBe(403);
    // Only a bearer token (which the API authenticates by itself, never by the cookie) lets an
    // API request through: any other Authorization scheme with the cookie is checked, and a page
    // is checked whatever it carries.
    for (const authorization of ['Basic YWRtaW46YWRtaW4=', 'Token t', 'bearer']) {
      const api = await post('/api/thing', { origin: 'http://evil.example', authorization });
      expect(api.status, authorization).toBe(403);
      expect(JSON.parse(api.body)).toMatchObject({ code: 'forbidden' });
    }
    for (const authorization of ['Basic YWRtaW46YWRtaW4=', 'Bearer k', 'Token t']) {
      const page = await send('/dashboard', {
        method: 'POST',
        headers: { origin: 'http://evil.example', authorization },
      });
      expect(page.status, authorization).toBe(403);
    }
    // The site's own address (PUBLIC_URL) sent to another host: Remix would refuse the action with
    // a 500, so it is refused here.
    expect((await post('/dashboard', { origin: 'https://courier.example' })).status).toBe(403);
    expect(mutations).toBe(before);
  });

  it('lets the site itself, token clients and cookie-less clients through', async () => {
    const before = mutations;
    const own = `http://127.0.0.1:${port}`;
    const ok = [
      await send('/dashboard', { method: 'POST', headers: { cookie, origin: own } }),
      await send('/dashboard', {
        method: 'POST',
        headers: { cookie, origin: 'https://courier.example', host: 'courier.example' },
      }),
      await send('/dashboard', {
        method: 'POST',
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      }),
      await send('/api/thing', {
        method: 'POST',
        headers: { authorization: 'Bearer k', origin: 'http://elsewhere.example' },
      }),
      await send('/api/thing', { method: 'POST' }),
    ];
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 201, 201]);
    expect(mutations).toBe(before + 5);
  });
});

describe('malformed requests', () => {
  it('refuses a path whose percent-encoding does not decode with 400, JSON under /api', async () => {
    const page = await send('/track/%FF');
    expect(page.status).toBe(400);
    expect(page.body).toMatch(/malformed percent-encoding/);
    const api = await send('/api/parcels/%E0%A4%A');
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body)).toMatchObject({ code: 'malformed_request' });
    // Well-formed encodings still reach the route.
    expect((await send('/ech%6F')).status).toBe(200);
  });

  it('refuses TRACE and methods it does not serve with 405 and the methods it knows, before any route', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'LINK']) {
      const before = mutations;
      const page = await send('/dashboard', { method });
      expect(page.status, method).toBe(405);
      expect(page.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      const api = await send('/api/thing', { method });
      expect(api.status, method).toBe(405);
      expect(JSON.parse(api.body)).toMatchObject({ code: 'method_not_allowed' });
      expect(mutations).toBe(before);
    }
    // A method Node's parser does not know at all is a 400 from the parser itself.
    expect((await send('/api/thing', { method: 'BREW' })).status).toBe(400);
    expect((await send('/echo')).status).toBe(200);
  });

  it('logs one line, not a stack, for an API request whose body the client cut off', async () => {
    const warnings: unknown[][] = [];
    const warn = vi
      .spyOn(console, 'warn')
      .mockImplementation((...args) => void warnings.push(args));
    const reads = apiBodyReads;
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /api/body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"slowly":',
    );
    await vi.waitFor(() => expect(apiBodyReads).toBe(reads + 1));
    socket.destroy();
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    warn.mockRestore();
    expect(warnings[0]).toHaveLength(1);
    expect(String(warnings[0]![0])).not.toContain('\n');
    // Nothing went to console.error (the suite fails a test that writes there).
  });

  it('closes a connection whose body was left unread by an early answer, so the next request on a new one is served at once', async () => {
    // The server answers 403 (a cross-site mutation) before anything reads the body.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = 'x'.repeat(LIMIT - 1024);
    const early = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/dashboard',
          method: 'POST',
          agent,
          headers: {
            cookie: '__session=abc',
            origin: 'http://evil.example',
            'content-type': 'text/plain',
            'content-length': String(body.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode!, connection: res.headers.connection }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(early).toEqual({ status: 403, connection: 'close' });
    const started = Date.now();
    const next = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/echo', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        })
        .on('error', reject);
    });
    expect(next).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  });
});
