import { pinoHttp } from 'pino-http';

/**
 * Query parameters whose values a request's log line keeps; any other's value is written as
 * `[Redacted]`: the links in e-mails carry tokens, searches carry what staff typed (names,
 * addresses), and a parameter added later is hidden until it is listed here.
 */
const SHOWN_QUERY_PARAMETERS = new Set([
  '_data',
  'automatic',
  'depotId',
  'dryRun',
  'ids',
  'index',
  'kind',
  'limit',
  'location',
  'number',
  'order',
  'page',
  'paper',
  'sort',
  'status',
  'trackingNumber',
  'updatedSince',
]);

/** The path and query as logged: the values of parameters not listed above redacted. */
export function loggedUrl(originalUrl) {
  const question = originalUrl.indexOf('?');
  if (question < 0) return originalUrl;
  const query = [...new URLSearchParams(originalUrl.slice(question + 1))].map(
    ([name, value]) =>
      `${encodeURIComponent(name)}=${SHOWN_QUERY_PARAMETERS.has(name) ? encodeURIComponent(value) : '[Redacted]'}`,
  );
  return `${originalUrl.slice(0, question)}?${query.join('&')}`;
}

/**
 * One JSON line per request on standard output (pino-http), written when the answer has been
 * sent, or when the client went away before it: the request id sent as `X-Request-Id`, the
 * method and URL, the route pattern (server/route-labels.js), the status, the duration in milliseconds, the
 * signed-in user's id and, for an error no route expected, the error with its stack, which the
 * client never sees. Levels: `error` for a 5xx or an error, `info` otherwise.
 *
 * The app's code notes the user and the error in `requestContext` (app/lib/logger.server.ts),
 * which this opens for each request. The request's own pieces are kept out: its headers
 * (cookies, authorization), its body, and the values of query parameters not listed above.
 *
 * @param {{
 *   logger: import('pino').Logger,
 *   requestContext: import('node:async_hooks').AsyncLocalStorage<{ userId?: string, error?: unknown }>,
 * }} options
 */
export function requestLog({ logger, requestContext }) {
  const facts = (_req, res) => ({
    requestId: res.locals.requestId,
    route: res.locals.route,
    userId: res.locals.requestFacts?.userId,
  });
  const log = pinoHttp({
    logger,
    genReqId: (_req, res) => res.locals.requestId,
    wrapSerializers: false,
    serializers: {
      req: (req) => ({ method: req.method, url: loggedUrl(req.originalUrl) }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    customAttributeKeys: { responseTime: 'durationMs' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res, fields) => ({ ...facts(req, res), ...fields }),
    customErrorObject: (req, res, error, fields) => ({
      ...facts(req, res),
      ...fields,
      err: res.locals.requestFacts?.error ?? error,
    }),
  });
  return (req, res, next) => {
    const known = {};
    res.locals.requestFacts = known;
    // While the log is off (LOG_LEVEL=silent, the tests), an error still shows on standard error.
    res.once('close', () => {
      if (known.error && !logger.isLevelEnabled('error')) console.error(known.error);
    });
    log(req, res, () => requestContext.run(known, next));
  };
}
