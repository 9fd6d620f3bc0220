import { AsyncLocalStorage } from 'node:async_hooks';
import {
  pino,
  stdSerializers,
  stdTimeFunctions,
  type DestinationStream,
  type Logger,
  type LoggerOptions,
} from 'pino';
import { env } from './env.server';

/**
 * The app's log: JSON lines on standard output (`pino`), one per request, written by
 * server/index.js through `pino-http` when the answer is sent, at LOG_LEVEL (`info`; nothing
 * under NODE_ENV=test). `npm run dev` pipes them through pino-pretty.
 *
 * What the request's own code learns on the way goes into its line: who made it
 * (`noteRequestUser`, called where a session or a bearer credential is resolved) and the error
 * that failed it (`reportError`, with its stack, which never reaches the client). The request's
 * facts travel in an AsyncLocalStorage that the server opens for each request, since the code
 * that learns them sees only the Fetch `Request`, never the server's.
 *
 * Never logged: cookies, authorization headers, tokens, passwords, secrets and e-mail addresses
 * (redacted wherever they are keys, masked in error texts); request URLs keep the values of
 * harmless query parameters only (server/request-log.js).
 */
export type RequestFacts = { userId?: string; error?: unknown };

const EMAIL = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[a-z]{2,}/gi;

/** An error's type, message and stack, e-mail addresses masked (a mail server's refusal names them). */
function errorFields(error: unknown) {
  const fields = stdSerializers.err(error instanceof Error ? error : new Error(String(error)));
  const mask = (text: unknown) =>
    typeof text === 'string' ? text.replace(EMAIL, '[email]') : text;
  return { ...fields, message: mask(fields.message), stack: mask(fields.stack) };
}

const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'secret',
  'authorization',
  'cookie',
  'email',
  'to',
];

/** The app's logger; a test may give it a level and a destination of its own. */
export function createLogger({
  level = env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
  destination,
}: { level?: string; destination?: DestinationStream } = {}): Logger {
  const options: LoggerOptions = {
    level,
    timestamp: stdTimeFunctions.isoTime,
    serializers: { err: errorFields },
    redact: {
      paths: [
        ...SECRET_KEYS,
        ...SECRET_KEYS.map((key) => `*.${key}`),
        '*.headers.authorization',
        '*.headers.cookie',
        '*.headers["set-cookie"]',
      ],
      censor: '[Redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

type LogState = { logger: Logger; requestContext: AsyncLocalStorage<RequestFacts> };

// One per process, however many copies of this module are loaded (a test loads the build's and
// the source's).
const globalForLog = globalThis as typeof globalThis & { __courierLog?: LogState };
const state: LogState = (globalForLog.__courierLog ??= {
  logger: createLogger(),
  requestContext: new AsyncLocalStorage<RequestFacts>(),
});

export const logger = state.logger;

/** What the server opens around each request, for the facts below. */
export const requestContext = state.requestContext;

/** Records who made the current request (a user's id), for its log line. */
export function noteRequestUser(userId: string) {
  const facts = requestContext.getStore();
  if (facts) facts.userId = userId;
}

/**
 * An error no one expected: within a request it goes into the request's log line (an error
 * line, with the stack; to standard error while the log is off), elsewhere to standard error.
 */
export function reportError(error: unknown) {
  const facts = requestContext.getStore();
  if (facts) facts.error ??= error;
  else console.error(error);
}
