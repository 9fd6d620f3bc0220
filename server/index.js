import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequestHandler } from '@remix-run/express';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import express from 'express';
import onHeaders from 'on-headers';
import { metricsEndpoint, requestMetrics } from './metrics.js';
import { requestLog } from './request-log.js';
import { routeAreas } from './route-areas.js';
import { routeLabels } from './route-labels.js';
import { noStoreForPrivateAnswers, sameOriginMutations, securityHeaders } from './security.js';

/**
 * Public endpoints other sites may post to: the tracking lookups and subscription requests (from
 * a browser, CORS), one-click unsubscribe (from a mail provider) and the texts recipients send
 * (from the SMS provider) and Stripe's events about card payments. They read no cookie.
 */
const PUBLIC_POST_ENDPOINTS = [
  '/api/tracking/track',
  /^\/api\/tracking\/track\/[^/]+\/subscriptions$/,
  '/subscriptions/one-click',
  '/api/sms/inbound',
  '/api/stripe/webhook',
];

/** Routes that take uploads (the parcel CSV import): their bodies may reach `uploadBodyLimit`. */
export const UPLOAD_PATHS = ['/api/parcels/import', '/dashboard/parcels/import'];

/**
 * Proofs of delivery (up to three 10 MB photos and a signature): their bodies may reach
 * PROOF_UPLOAD_MAX_BYTES (app/schemas/proof-of-delivery.ts).
 */
export const PROOF_UPLOAD_PATHS = [
  /^\/api\/parcels\/[^/]+\/proof-of-delivery$/i,
  /^\/dashboard\/parcels\/[^/]+\/proof-of-delivery$/i,
];
const PROOF_UPLOAD_MAX_BYTES = 3 * 10 * 1024 * 1024 + 2 * 1024 * 1024 + 256 * 1024;

/**
 * Timeouts for the HTTP server of one app process. Slow-drip clients: the headers within 10 s,
 * the whole request within 30 s. An idle keep-alive connection stays open for 65 s, longer than
 * the usual load balancer's 60 s: with Node's 5 s, a proxy or client that reuses a connection
 * just as the server closes it gets a reset (a 502 behind a load balancer).
 *
 * @param {import('node:http').Server} server
 */
export function setTimeouts(server) {
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * The HTTP side of one app process, in the Epic Stack's manner: express, gzip, the build's hashed
 * assets under /build/ (immutable for a year), public/, and every other request through Remix's
 * express adapter with the client's address in the load context.
 *
 * Request bodies are counted as they stream in (see limitBody), so no route ever buffers more
 * than `bodyLimit` bytes, chunked or not — or `uploadBodyLimit` for the routes in UPLOAD_PATHS. Every answer gets the security headers, and every
 * mutation must come from the site itself (see security.js). Every request is counted for
 * `/metrics` (metrics.js, served for the bearer of `metricsToken`) and, with a `logger`, logged
 * as one JSON line (request-log.js), under its route's pattern (route-labels.js).
 *
 * @param {{
 *   build: import('@remix-run/node').ServerBuild,
 *   buildDir: string,
 *   publicDir?: string,
 *   mode?: string,
 *   trustProxy?: false | number | string[],
 *   bodyLimit?: number,
 *   uploadBodyLimit?: number,
 *   publicUrl?: string,
 *   metricsToken?: string,
 *   logger?: import('pino').Logger,
 *   requestContext?: import('node:async_hooks').AsyncLocalStorage<object>,
 * }} options
 */
export function createApp({
  build,
  buildDir,
  publicDir = 'public',
  mode = 'production',
  trustProxy = false,
  bodyLimit = 1024 * 1024,
  uploadBodyLimit = 20 * 1024 * 1024,
  publicUrl,
  metricsToken,
  logger,
  requestContext,
}) {
  const sessionCookie = '__session';
  const publicPaths = listFiles(publicDir);
  const routeOf = routeLabels(build, ['/build/*', '/metrics']);
  const app = express();
  app.disable('x-powered-by');
  // Behind proxies, req.ip and req.protocol come from X-Forwarded-For / X-Forwarded-Proto, as
  // far back as the trusted hops go (a number of hops or the proxies' addresses, never `true`,
  // which would take an address the client wrote): see TRUST_PROXY in app/lib/env.server.ts.
  app.set('trust proxy', trustProxy);
  app.use(requestId());
  // A public file's label is its own path: they are few, and listed at start.
  app.use((req, res, next) => {
    res.locals.route = publicPaths.has(req.path) ? req.path : routeOf(req.path);
    next();
  });
  if (logger && requestContext) app.use(requestLog({ logger, requestContext }));
  app.use(requestMetrics({ knownMethods: KNOWN_METHODS }));
  app.use(wellFormedRequests());
  app.use(closeAfterEarlyAnswers());
  app.use(compression());
  app.use(securityHeaders());
  app.get('/metrics', metricsEndpoint({ token: metricsToken }));
  // The build's scripts and styles as compressed once at build time (scripts/precompress.js):
  // brotli where the browser takes it, else gzip at its best level; compression() leaves those be.
  app.use(
    '/build',
    expressStaticGzip(path.join(buildDir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', index: false, redirect: false },
    }),
  );
  // A missing asset is a plain 404, not a page.
  app.use('/build', (_req, res) => void res.sendStatus(404));
  app.use(publicFiles(publicDir, publicPaths));
  app.use(
    limitBody(
      bodyLimit,
      { paths: UPLOAD_PATHS, limit: uploadBodyLimit },
      { paths: PROOF_UPLOAD_PATHS, limit: PROOF_UPLOAD_MAX_BYTES },
    ),
  );
  app.use(sameOriginMutations({ publicUrl, sessionCookie, openPaths: PUBLIC_POST_ENDPOINTS }));
  app.use(noStoreForPrivateAnswers({ sessionCookie }));
  // Remix's request handler over the routes a path's start can match (server/route-areas.js),
  // one per start, made when a path first needs it.
  const { forPath } = routeAreas(build, (table) =>
    createRequestHandler({
      build: table,
      mode,
      getLoadContext: (req, res) => ({
        clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        cspNonce: res.locals.cspNonce,
        requestId: res.locals.requestId,
      }),
    }),
  );
  app.all('*', (req, res, next) => forPath(req.path)(req, res, next));
  // After a 413 the adapter's own answer has nowhere to go; anything else is logged (in the
  // request's line, or on standard error while the log is off), never shown.
  app.use((error, req, res, _next) => {
    if (req.bodyTooLarge) return;
    if (logger?.isLevelEnabled('error')) res.err = error;
    else console.error(error);
    if (res.headersSent) return void req.socket.destroy();
    const message = 'Internal server error';
    res.status(500);
    if (req.path.toLowerCase().startsWith('/api/'))
      res.json({ error: message, message, code: 'internal_error' });
    else res.type('text/plain').send('Internal Server Error');
  });
  return app;
}

/**
 * The files of `public/`, served for an hour. They are listed once at start (they change only
 * with a deploy), so that every other request — every page and API call — goes on to Remix
 * without a file-system lookup for a file that is not there.
 */
function publicFiles(dir, paths) {
  const serve = express.static(dir, { maxAge: '1h', index: false, redirect: false });
  return (req, res, next) => (paths.has(req.path) ? serve(req, res, next) : next());
}

/** The paths of the files under `dir` (`/favicon.svg`, …). */
function listFiles(dir) {
  const paths = new Set();
  const walk = (folder, prefix) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(folder, entry.name), `${prefix}${entry.name}/`);
      else paths.add(`${prefix}${entry.name}`);
    }
  };
  if (fs.existsSync(dir)) walk(dir, '/');
  return paths;
}

/** The methods the app answers; any other is refused before a route sees it. */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Requests no route could read are refused here, before Remix: a method outside KNOWN_METHODS
 * (TRACE, CONNECT, made-up ones) with 405, and a path whose percent-encoding does not decode
 * (`/track/%FF`) with 400 — Remix would otherwise fail decoding it with a 500. JSON under /api.
 */
function wellFormedRequests() {
  const refuse = (req, res, status, code, message) => {
    res.status(status);
    if (req.path.toLowerCase().startsWith('/api/')) res.json({ error: message, message, code });
    else res.type('text/plain').send(message);
  };
  return (req, res, next) => {
    if (!KNOWN_METHODS.includes(req.method)) {
      res.set('Allow', KNOWN_METHODS.join(', '));
      return refuse(req, res, 405, 'method_not_allowed', `Method ${req.method} is not allowed`);
    }
    try {
      decodeURIComponent(req.path);
    } catch {
      return refuse(
        req,
        res,
        400,
        'malformed_request',
        'The address is not valid: malformed percent-encoding',
      );
    }
    next();
  };
}

/**
 * An answer sent before the request's body was read (a 401 or 403 to an upload, say) closes the
 * connection: the unread rest of the body would otherwise stand in front of the client's next
 * request on it, which would then wait until the server gave up on the body.
 */
function closeAfterEarlyAnswers() {
  return (req, res, next) => {
    const hasBody = Number(req.headers['content-length']) > 0 || 'transfer-encoding' in req.headers;
    if (hasBody)
      onHeaders(res, () => {
        if (!req.complete && !res.hasHeader('Connection')) res.setHeader('Connection', 'close');
      });
    next();
  };
}

/** What a client may send as its own request id: short, printable, no spaces or separators. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@+=-]{1,128}$/;

/**
 * Every answer carries `X-Request-Id`: the client's own when it sent a valid one (so a caller can
 * match its logs with ours), else a fresh UUID. Routes see it in the load context.
 */
function requestId() {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}

/**
 * Answers 413 as soon as a request body passes `limit` bytes (an upload's `limit` on the paths in
 * its `paths`, exact or patterns, a trailing slash aside), whether it declared its length or
 * streams in chunks, and reads nothing more of it. The counter listens beside the adapter, which
 * attaches its own reader in the same tick, so no chunk is missed and backpressure still holds.
 * (body-parser and raw-body enforce limits too, but only by consuming the body themselves, which
 * would leave nothing for Remix to read.)
 */
function limitBody(defaultLimit, ...uploads) {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const pathname = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const upload = uploads.find(({ paths }) =>
      paths.some((p) => (typeof p === 'string' ? p === pathname : p.test(pathname))),
    );
    const limit = upload ? upload.limit : defaultLimit;
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return tooLarge(req, res, limit);
    let received = 0;
    const count = (chunk) => {
      received += chunk.length;
      if (received <= limit) return;
      req.off('data', count);
      tooLarge(req, res, limit);
    };
    req.on('data', count);
    next();
  };
}

function tooLarge(req, res, limit) {
  req.bodyTooLarge = true;
  if (!res.headersSent) {
    const message = `The request body is larger than ${limit} bytes`;
    res
      .status(413)
      .set('Connection', 'close')
      .json({ error: message, message, code: 'payload_too_large' });
  }
  // Read nothing more, and make the route's reader fail rather than see a truncated body.
  req.pause();
  const error = Object.assign(new Error('Request body too large'), {
    name: 'PayloadTooLargeError',
    status: 413,
  });
  if (res.writableFinished) req.destroy(error);
  else res.once('finish', () => req.destroy(error));
}
