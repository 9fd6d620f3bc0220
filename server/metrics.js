import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Histogram,
  register,
} from 'prom-client';

/**
 * `GET /metrics` in Prometheus's text format (prom-client), for a bearer token (METRICS_TOKEN;
 * unset, the path is the site's 404): the requests by route pattern (route-labels.js), method
 * and status with their latency, the process's own figures (CPU, memory, event loop, garbage
 * collection), and what the app counts (app/lib/metrics.server.ts: messages, webhooks, sign-in
 * failures, jobs, the queue, the database's round trips). It is not part of the JSON API.
 *
 * With several app processes (node:cluster), each counts what it serves, and a scrape reaching
 * any of them reports them all: that process asks the primary, which gathers every process's
 * figures with prom-client's AggregatorRegistry (counters and histograms added up, the queue's
 * gauges taken once) and hands the text back. The primary's own process is not among them.
 */

function metric(name, make) {
  return register.getSingleMetric(name) ?? make(name);
}

/** Counts and times every request, under its route's pattern (`res.locals.route`). */
export function requestMetrics({ knownMethods }) {
  if (!register.getSingleMetric('process_cpu_seconds_total')) collectDefaultMetrics();
  // An app process answers the primary's requests for its figures once an AggregatorRegistry
  // exists in it (prom-client adds its listener then).
  if (cluster.isWorker) new AggregatorRegistry();
  const requests = metric(
    'http_requests_total',
    (name) =>
      new Counter({
        name,
        help: 'HTTP requests answered, by route pattern, method and status (aborted: the client left before the answer was sent)',
        labelNames: ['route', 'method', 'status'],
      }),
  );
  const durations = metric(
    'http_request_duration_seconds',
    (name) =>
      new Histogram({
        name,
        help: 'Time from a request to the end of its answer, by route pattern, method and status',
        labelNames: ['route', 'method', 'status'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      }),
  );
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const labels = {
        route: res.locals.route,
        method: knownMethods.includes(req.method) ? req.method : 'other',
        status: res.writableFinished ? String(res.statusCode) : 'aborted',
      };
      requests.inc(labels);
      durations.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  };
}

const digest = (text) => createHash('sha256').update(text).digest();

/** The `/metrics` answer: every process's figures for the bearer of `token`; 401 for anyone else. */
export function metricsEndpoint({ token }) {
  const expected = token ? digest(token) : null;
  return async (req, res, next) => {
    if (!expected) return next();
    const given = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    res.set('Cache-Control', 'no-store');
    if (!given || !timingSafeEqual(digest(given), expected)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      res
        .status(401)
        .type('text/plain')
        .send('GET /metrics needs the METRICS_TOKEN as a bearer token');
      return;
    }
    try {
      const text = cluster.isWorker ? await fromPrimary() : await register.metrics();
      res.set('Content-Type', register.contentType).send(text);
    } catch (error) {
      res.status(503).type('text/plain').send(`Metrics unavailable: ${error.message}`);
    }
  };
}

const ASK = 'courier:metrics-request';
const ANSWER = 'courier:metrics-answer';
const pending = new Map();

/** Every process's metrics, gathered by the primary (see answerMetricsRequests). */
function fromPrimary() {
  if (pending.size === 0) process.on('message', takeAnswer);
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(id, { error: 'the primary did not answer' }), 10_000);
    pending.set(id, { resolve, reject, timer });
    process.send({ type: ASK, id });
  });
}

function takeAnswer(message) {
  if (message?.type === ANSWER) settle(message.id, message);
}

function settle(id, { text, error }) {
  const waiting = pending.get(id);
  if (!waiting) return;
  pending.delete(id);
  if (pending.size === 0) process.off('message', takeAnswer);
  clearTimeout(waiting.timer);
  if (error === undefined) waiting.resolve(text);
  else waiting.reject(new Error(error));
}

/** In the primary: answers an app process's request for everyone's metrics. */
export function answerMetricsRequests() {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message) => {
    if (message?.type !== ASK) return;
    // A process that stopped meanwhile gets nothing (and the send's failure is no one's error).
    const answer = (reply) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...reply }, () => {});
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error) => answer({ error: error.message }),
    );
  });
}
