import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppServer } from '../../server/app-server.js';

type Handle = (request: Request, context: { clientAddress: string }) => Promise<Response>;
type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-server-'));
const assetsDir = path.join(dir, 'assets');
const publicDir = path.join(dir, 'public');
fs.mkdirSync(path.join(assetsDir, '_shared'), { recursive: true });
fs.mkdirSync(publicDir, { recursive: true });
fs.writeFileSync(path.join(assetsDir, '_shared', 'chunk-ABC.js'), 'export const x = 1;');
fs.writeFileSync(path.join(publicDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let handle: Handle;
let seen: { request: Request; context: { clientAddress: string } }[] = [];
let server: http.Server;
let port = 0;

function start(trustProxy: boolean) {
  server = createAppServer({
    handle: (request: Request, context: { clientAddress: string }) => {
      seen.push({ request, context });
      return handle(request, context);
    },
    assetsDir,
    publicDir,
    trustProxy,
  });
  return new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    }),
  );
}

function send(
  pathname: string,
  options: http.RequestOptions & { body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, agent: false, ...options },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the app server', () => {
  beforeAll(() => start(false));
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  afterEach(() => {
    seen = [];
  });

  it('sends a one-piece answer with its length, in one response without chunking', async () => {
    handle = async () =>
      Response.json({ parcel: { trackingNumber: 'ABC123456789' } }, { status: 404 });
    const reply = await send('/api/tracking/track/ABC123456789?x=1');
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toMatch(/application\/json/);
    expect(reply.headers['content-length']).toBe(String(reply.body.length));
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(reply.body.toString())).toEqual({
      parcel: { trackingNumber: 'ABC123456789' },
    });
    expect(seen[0]!.request.url).toBe(
      `http://127.0.0.1:${port}/api/tracking/track/ABC123456789?x=1`,
    );
    expect(seen[0]!.context.clientAddress).toBe('127.0.0.1');
  });

  it('gzips a large answer for a client that accepts it', async () => {
    const page = `<!DOCTYPE html><html><body>${'<p>Out for delivery</p>'.repeat(200)}</body></html>`;
    handle = async () =>
      new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const reply = await send('/track', { headers: { 'accept-encoding': 'gzip' } });
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(reply.body).toString()).toBe(page);
    const plain = await send('/track');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('keeps every Set-Cookie header and the status text', async () => {
    const headers = new Headers({ location: '/dashboard' });
    headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
    headers.append('set-cookie', 'b=2; Path=/; SameSite=Lax');
    handle = async () => new Response(null, { status: 302, statusText: 'Found it', headers });
    const reply = await send('/management/access', { method: 'POST', body: 'username=a' });
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe('/dashboard');
    expect(reply.headers['set-cookie']).toEqual([
      'a=1; Path=/; HttpOnly',
      'b=2; Path=/; SameSite=Lax',
    ]);
  });

  it('passes the method, headers and body of a form post to the handler', async () => {
    handle = async (request) =>
      new Response(`${request.method} ${request.headers.get('x-test')} ${await request.text()}`);
    const reply = await send('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-test': 'yes' },
      body: 'name=Ann&message=Hello',
    });
    expect(reply.body.toString()).toBe('POST yes name=Ann&message=Hello');
  });

  it('streams a body that arrives in pieces', async () => {
    const encoder = new TextEncoder();
    handle = async () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            for (const part of ['one,', 'two,', 'three']) {
              controller.enqueue(encoder.encode(part));
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            controller.close();
          },
        }),
      );
    const reply = await send('/stream');
    expect(reply.headers['transfer-encoding']).toBe('chunked');
    expect(reply.body.toString()).toBe('one,two,three');
  });

  it('answers HEAD with the headers only', async () => {
    handle = async () => new Response('a body', { headers: { 'x-kind': 'page' } });
    const reply = await send('/', { method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.headers['x-kind']).toBe('page');
    expect(reply.body.length).toBe(0);
  });

  it('serves build assets with a long cache, and falls through to the app for a missing one', async () => {
    handle = async () => new Response('Not Found', { status: 404 });
    const asset = await send('/build/_shared/chunk-ABC.js');
    expect(asset.status).toBe(200);
    expect(asset.body.toString()).toBe('export const x = 1;');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(seen).toHaveLength(0);
    expect((await send('/build/_shared/chunk-missing.js')).status).toBe(404);
    expect((await send('/build/../public/favicon.svg')).status).toBe(404);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('serves the files of public/ and sends every other path to the app', async () => {
    handle = async (request) => new Response(new URL(request.url).pathname);
    const icon = await send('/favicon.svg');
    expect(icon.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expect(seen).toHaveLength(0);
    expect((await send('/about')).body.toString()).toBe('/about');
  });

  it('answers 500 without details when the handler fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    handle = async () => {
      throw new Error('secret stack detail');
    };
    const reply = await send('/boom');
    expect(reply.status).toBe(500);
    expect(reply.body.toString()).toBe('Internal Server Error');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('answers 400 to a request whose address cannot be parsed', async () => {
    handle = async () => new Response('never');
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /track HTTP/1.1\r\nHost: exa mple\r\nConnection: close\r\n\r\n');
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(seen).toHaveLength(0);
  });

  it('aborts the request signal when the client goes away before the answer', async () => {
    let aborted!: Promise<boolean>;
    handle = (request) => {
      aborted = new Promise((resolve) =>
        request.signal.addEventListener('abort', () => resolve(true)),
      );
      return new Promise(() => {});
    };
    const req = http.request({ host: '127.0.0.1', port, path: '/slow', agent: false });
    req.on('error', () => {});
    req.end();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    req.destroy();
    expect(await aborted).toBe(true);
  });
});

describe('the app server behind a trusted proxy', () => {
  beforeAll(() => start(true));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('takes the client address, protocol and host from X-Forwarded-*', async () => {
    handle = async () => new Response('ok');
    await send('/track', {
      headers: {
        'x-forwarded-for': '203.0.113.7, 10.0.0.2',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'track.example.com',
      },
    });
    const last = seen.at(-1)!;
    expect(last.context.clientAddress).toBe('203.0.113.7');
    expect(last.request.url).toBe('https://track.example.com/track');
    await send('/track');
    expect(seen.at(-1)!.context.clientAddress).toBe('127.0.0.1');
  });
});
