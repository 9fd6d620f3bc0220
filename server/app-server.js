import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createReadableStreamFromReadable } from '@remix-run/node';
import compression from 'compression';
import serveStatic from 'serve-static';

/**
 * The HTTP side of an app process: node's HTTP server, gzip, the build's hashed assets under
 * /build/, the files of public/, and every other request through `handle` (Remix's request
 * handler: a Fetch Request in, a Response out).
 *
 * @param {{
 *   handle: (request: Request, loadContext: { clientAddress: string }) => Promise<Response>,
 *   assetsDir: string,
 *   publicDir: string,
 *   trustProxy?: boolean,
 * }} options
 */
export function createAppServer({ handle, assetsDir, publicDir, trustProxy = false }) {
  const compress = compression();
  const assets = serveStatic(assetsDir, {
    immutable: true,
    maxAge: '1y',
    index: false,
    redirect: false,
  });
  const publicFiles = listFiles(publicDir);
  const servePublic = serveStatic(publicDir, { maxAge: '1h', index: false, redirect: false });

  const app = (req, res) => {
    const pathname = req.url.split('?', 1)[0];
    if (pathname.startsWith('/build/')) {
      // serve-static reads the path from req.url, relative to the folder it serves.
      const url = req.url;
      req.url = url.slice('/build'.length);
      return assets(req, res, () => {
        req.url = url;
        respond(req, res);
      });
    }
    // public/ is fixed at start: only its own files reach the file system, so other requests
    // (every page and API call) skip a stat() for a file that isn't there.
    if (publicFiles.has(pathname)) return servePublic(req, res, () => respond(req, res));
    respond(req, res);
  };

  const respond = (req, res) => {
    let request;
    let controller = new AbortController();
    try {
      request = remixRequest(req, controller.signal, trustProxy);
    } catch {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Bad Request');
      return;
    }
    // Loaders and actions stop if the client goes away before the response is written.
    res.once('finish', () => (controller = null));
    res.once('close', () => controller?.abort());
    handle(request, { clientAddress: clientAddress(req, trustProxy) })
      .then((response) => sendResponse(req, res, response))
      .catch((error) => {
        console.error(error);
        if (res.headersSent) return res.destroy();
        res.statusCode = 500;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('Internal Server Error');
      });
  };

  return http.createServer((req, res) => compress(req, res, () => app(req, res)));
}

/** Every file under `dir`, as the URL path it is served at ("/favicon.ico"). */
function listFiles(dir) {
  if (!fs.existsSync(dir)) return new Set();
  return new Set(
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((file) => file.isFile())
      .map(
        (file) =>
          '/' +
          path
            .relative(dir, path.join(file.parentPath ?? file.path, file.name))
            .split(path.sep)
            .join('/'),
      ),
  );
}

/** The first value of a header that a proxy may have sent as a list. */
function firstValue(value) {
  return value?.split(',', 1)[0].trim() || undefined;
}

/**
 * The client's address. Behind a trusted proxy it is the first address of X-Forwarded-For (what
 * the proxy nearest the client saw); otherwise the connection's.
 */
function clientAddress(req, trustProxy) {
  return (
    (trustProxy && firstValue(req.headers['x-forwarded-for'])) ||
    req.socket.remoteAddress ||
    'unknown'
  );
}

function remixRequest(req, signal, trustProxy) {
  const protocol =
    (trustProxy && firstValue(req.headers['x-forwarded-proto'])) ||
    (req.socket.encrypted ? 'https' : 'http');
  const host =
    (trustProxy && firstValue(req.headers['x-forwarded-host'])) || req.headers.host || 'localhost';
  const url = new URL(`${protocol}://${host}${req.url}`);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const init = { method: req.method, headers, signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Writes a Fetch Response. A body that arrives as one chunk (a rendered page, a JSON answer, a
 * file made in memory) goes out with its Content-Length in one write; longer bodies stream, with
 * backpressure, until the client goes away.
 */
async function sendResponse(req, res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [key, value] of response.headers) if (key !== 'set-cookie') res.setHeader(key, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);

  if (!response.body) return void res.end();
  if (req.method === 'HEAD') {
    await response.body.cancel();
    return void res.end();
  }
  const reader = response.body.getReader();
  try {
    const first = await reader.read();
    if (first.done) return void res.end();
    let next = await reader.read();
    if (next.done) {
      if (!res.hasHeader('content-length')) res.setHeader('content-length', first.value.byteLength);
      return void res.end(first.value);
    }
    let ok = res.write(first.value);
    while (!next.done) {
      if (!ok) await drained(res);
      if (res.destroyed) return;
      ok = res.write(next.value);
      next = await reader.read();
    }
    res.end();
  } finally {
    if (res.destroyed) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
