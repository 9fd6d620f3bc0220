import { json, type LoaderFunctionArgs } from '@remix-run/node';
import mongoose from 'mongoose';
import { z } from 'zod';
import { defaultErrorCode, type ApiErrorCode } from '~/schemas/api-error-codes';
import type { ApiOperation, DeclaredHandler } from './api-operation.server';
import { isDuplicateKey, isObjectId } from '~/lib/db.server';
import {
  ConflictError,
  DomainError,
  FileTooLargeError,
  NotFoundError,
  StaleRecordError,
  UnavailableError,
  UnsupportedFileError,
  ValidationError,
} from '~/lib/errors.server';
import { conditionalResponse } from '~/lib/http-cache.server';
import { reportError } from '~/lib/logger.server';
import { rateLimitHeaders, type RateLimitResult } from '~/lib/rate-limit.server';

/** What an API error says besides its status, message and per-field `details`. */
export type ApiErrorOptions = {
  /** Headers of the answer (Retry-After, Allow). */
  headers?: HeadersInit;
  /** The stable name a client acts on, when not the status's own (see api-error-codes.ts). */
  code?: ApiErrorCode;
  /** More fields of the body, for the few answers that say more (the number looked up). */
  extra?: Record<string, unknown>;
};

/** A failure an API handler throws, answered by `apiErrorResponse`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, string[]>,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
  }
}

/** What a 401 answers in WWW-Authenticate (RFC 6750): the scheme, and why a credential failed. */
export function bearerChallenge(error?: 'invalid_token', description?: string) {
  const parts = ['realm="api"'];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The one JSON error body of the API, `{error, message, code, details?}` (`error` and `message`
 * the same text, read by the spec's clients; `code` the status's own unless one is given): every
 * failure of every API route is answered here.
 */
export function apiErrorResponse(
  status: number,
  message: string,
  details?: Record<string, string[]>,
  { headers, code, extra }: ApiErrorOptions = {},
) {
  const init = new Headers(headers);
  // RFC 6750: a 401 names the scheme the API takes.
  if (status === 401 && !init.has('WWW-Authenticate'))
    init.set('WWW-Authenticate', bearerChallenge());
  return json(
    {
      error: message,
      message,
      code: code ?? defaultErrorCode(status),
      ...(details ? { details } : {}),
      ...extra,
    },
    { status, headers: init },
  );
}

/**
 * Per-field messages from a zod error, keyed by dotted path ('' for the whole body); a field the
 * body should not have is named by its own path.
 */
function fieldErrors(error: z.ZodError): Record<string, string[]> {
  // A Map, since a field a client made up may be called `constructor` or `__proto__`.
  const details = new Map<string, string[]>();
  const add = (path: PropertyKey[], message: string) => {
    const key = path.map(String).join('.');
    details.set(key, [...(details.get(key) ?? []), message]);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys')
      for (const key of issue.keys) add([...issue.path, key], UNKNOWN_FIELD);
    else add(issue.path, issue.message);
  }
  return Object.fromEntries(details);
}

export const UNKNOWN_FIELD = 'Unknown field: this request does not take it';

type AnyDef = Record<string, unknown> & { type: string };
const strictSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * `schema` with every object in it strict (zod's `z.strictObject`): an unknown field is an issue
 * naming it rather than dropped. The API reads its JSON bodies through this, so that a misspelt
 * field (`priorty`) is refused instead of silently ignored, while the pages' forms, which parse
 * the same shared schemas and post fields of their own (`intent`), keep zod's default. Objects
 * declared open (`z.looseObject`) stay open. zod has no option that makes a whole schema strict,
 * hence this walk over its definitions; each schema is converted once.
 */
export function strictSchema<T extends z.ZodType>(schema: T): T {
  const known = strictSchemas.get(schema);
  if (known) return known as T;
  const def = schema._zod.def as unknown as AnyDef;
  const sub = (key: string) => strictSchema(def[key] as z.ZodType);
  let strict: z.ZodType = schema;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [
          k,
          strictSchema(v),
        ]),
      );
      strict = schema.clone({ ...def, shape, catchall: def.catchall ?? z.never() } as never);
      break;
    }
    case 'array':
      strict = schema.clone({ ...def, element: sub('element') } as never);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      strict = schema.clone({ ...def, innerType: sub('innerType') } as never);
      break;
    case 'pipe': {
      // A preprocess is a pipe from a transform: the schema after it reads the body.
      const first = (def.in as z.ZodType)._zod.def.type;
      strict = schema.clone({
        ...def,
        in: sub('in'),
        out: first === 'transform' ? sub('out') : def.out,
      } as never);
      break;
    }
    case 'union':
      strict = schema.clone({
        ...def,
        options: (def.options as z.ZodType[]).map((option) => strictSchema(option)),
      } as never);
      break;
  }
  // What `.meta()` says of the schema (a description, the bounds a refinement enforces) is kept
  // in zod's registry by instance: the strict copy says it too, so that the document does.
  const meta = z.globalRegistry.get(schema);
  if (strict !== schema && meta) {
    const { id: _id, ...rest } = meta;
    z.globalRegistry.add(strict, rest);
  }
  strictSchemas.set(schema, strict);
  return strict as T;
}

export function validationError(error: z.ZodError): ApiError {
  return new ApiError(400, 'Validation failed', fieldErrors(error));
}

/** The status of each kind of domain error: the one place a service's refusal becomes HTTP. */
const STATUS_OF: [kind: abstract new (...args: never[]) => DomainError, status: number][] = [
  [ValidationError, 400],
  [NotFoundError, 404],
  [ConflictError, 409],
  [StaleRecordError, 412],
  [FileTooLargeError, 413],
  [UnsupportedFileError, 415],
  [UnavailableError, 503],
];

/**
 * A refusal as the API answers it: an ApiError as it is, a service's domain error with its kind's
 * status and its code, details and extra fields; null for anything else (a fault, not a refusal).
 * Pages that show a service's refusal in a form read it through this too.
 */
export function asApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof DomainError)) return null;
  const status = STATUS_OF.find(([kind]) => error instanceof kind)?.[1] ?? 400;
  const { code, details, extra } = error.options;
  return new ApiError(status, error.message, details, { code, extra });
}

function isDatabaseDown(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  return /MongoServerSelectionError|MongoNetworkError|MongoNotConnectedError|MongoTopologyClosedError/.test(
    name,
  );
}

/**
 * A request body the client stopped sending: it closed the connection, or the server's request
 * timeout closed it for a body dripping in too slowly (Node's `aborted`). Nobody waits for the
 * answer, and the stack says nothing a line would not: a slow-body attack must not fill the log.
 */
function isAbortedBody(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ECONNRESET' &&
    error.message === 'aborted'
  );
}

/** Turns anything thrown by an API handler into the one JSON error shape. */
export function toApiErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (isAbortedBody(error)) {
    console.warn('A request body was cut off: the connection closed before all of it arrived');
    return apiErrorResponse(400, 'The request body was cut off before its end', undefined, {
      code: 'malformed_request',
    });
  }
  const refusal = asApiError(error);
  if (refusal)
    return apiErrorResponse(refusal.status, refusal.message, refusal.details, refusal.options);
  if (error instanceof z.ZodError)
    return apiErrorResponse(400, 'Validation failed', fieldErrors(error));
  if (error instanceof mongoose.Error.CastError)
    return apiErrorResponse(400, `Invalid ${error.path}`, { [error.path]: ['Invalid value'] });
  if (error instanceof mongoose.Error.ValidationError) {
    const details = Object.fromEntries(
      Object.entries(error.errors).map(([k, v]) => [k, [v.message]]),
    );
    return apiErrorResponse(400, 'Validation failed', details);
  }
  if (isDuplicateKey(error))
    return apiErrorResponse(409, 'A record with that value already exists');
  if (isDatabaseDown(error)) return apiErrorResponse(503, 'Database unavailable');
  reportError(error);
  return apiErrorResponse(500, 'Internal server error');
}

export async function handleApi(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (error) {
    return toApiErrorResponse(error);
  }
}

const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads a JSON body and validates it with `schema` made strict (an unknown field is a 400 naming
 * it); 415, 413 and 400 as the API conventions say.
 */
export async function readJsonBody<T extends z.ZodTypeAny>(
  request: Request,
  schema: T,
): Promise<z.output<T>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type))
    throw new ApiError(415, 'Request body must be JSON (Content-Type: application/json)');
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_JSON_BYTES) throw new ApiError(413, 'Request body too large');
  const text = await request.text();
  if (text.length > MAX_JSON_BYTES) throw new ApiError(413, 'Request body too large');
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Request body is not valid JSON', undefined, {
      code: 'malformed_json',
    });
  }
  const result = strictSchema(schema).safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** A JSON body that may be left out: an empty request without a Content-Type is `{}`. */
export async function readOptionalJsonBody<T extends z.ZodTypeAny>(
  request: Request,
  schema: T,
): Promise<z.output<T> | Record<string, never>> {
  const hasBody = request.headers.has('content-type') || (await request.clone().text()) !== '';
  return hasBody ? readJsonBody(request, schema) : {};
}

/**
 * Reads a CSV body (`text/csv`, or `application/csv`) as UTF-8 text: 415 for another type, 413
 * past `limit` bytes, 400 for bytes that are not UTF-8.
 */
export async function readCsvBody(request: Request, limit: number): Promise<string> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^(text|application)\/csv\b/i.test(type))
    throw new ApiError(415, 'Request body must be CSV (Content-Type: text/csv)');
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > limit) throw new ApiError(413, `The request body is larger than ${limit} bytes`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit)
    throw new ApiError(413, `The request body is larger than ${limit} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'The CSV file must be UTF-8 text');
  }
}

export function parseQuery<T extends z.ZodTypeAny>(request: Request, schema: T): z.output<T> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const result = schema.safeParse(params);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** What `lookup` finds, or a 404 saying `message`: a change or read of a record that is not there. */
export async function found<T>(lookup: Promise<T | null | undefined>, message: string): Promise<T> {
  const value = await lookup;
  if (!value) throw new ApiError(404, message);
  return value;
}

export function requireObjectId(id: string | undefined, what = 'id'): string {
  if (!isObjectId(id)) throw new ApiError(400, `Invalid ${what}`);
  return id;
}

/** What is left of the caller's API budget, noted when its request was counted. */
const budgets = new WeakMap<Request, RateLimitResult>();

/** Notes what is left of the budget a request was counted against, for its answer's headers. */
export function noteRateLimit(request: Request, limit: RateLimitResult) {
  budgets.set(request, limit);
}

/** RateLimit-* (and Retry-After when refused) on the answer to a counted request. */
function withBudget(request: Request, response: Response): Response {
  const limit = budgets.get(request);
  if (!limit) return response;
  for (const [name, value] of Object.entries(rateLimitHeaders(limit)))
    if (!response.headers.has(name)) response.headers.set(name, value);
  return response;
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
/** The methods an operation is declared for (OPTIONS is the public routes' preflight). */
export type DeclaredMethod = Exclude<ApiMethod, 'OPTIONS'>;
export type ApiArgs = Pick<LoaderFunctionArgs, 'request' | 'params' | 'context'>;
export type ApiHandler = (args: ApiArgs) => Promise<Response> | Response;
/**
 * A route's loader and action: one function, which also says the methods it answers and the
 * declaration of each, from which the OpenAPI document is assembled.
 */
export type ApiEntry = ((args: ApiArgs) => Promise<Response>) & {
  methods: ApiMethod[];
  operations: Partial<Record<DeclaredMethod, ApiOperation>>;
};

/**
 * An API route from its declared handlers (apiHandler, apiRecord, or `declared` for one written
 * by hand), one per method, in the order its `Allow` header lists them:
 *
 *     export const { loader, action } = apiRoute({ GET: …, PUT: …, DELETE: … });
 *
 * Remix gives GET and HEAD (and OPTIONS) to the loader, the other methods to the action; both are
 * this one function. HEAD is answered by GET. A method the route does not declare is a 405 whose
 * `Allow` names those it does, before anything else is read; whatever a handler throws becomes the
 * one JSON error shape. `preflight` answers OPTIONS (the public endpoints' CORS); `finish`
 * settles every answer, those included (the public endpoints' CORS and caching).
 */
export function apiRoute(
  declared: Partial<Record<DeclaredMethod, DeclaredHandler>>,
  {
    finish,
    preflight,
  }: {
    finish?: (response: Response, methods: ApiMethod[]) => Response;
    preflight?: ApiHandler;
  } = {},
): { loader: ApiEntry; action: ApiEntry } {
  const handlers: Partial<Record<ApiMethod, ApiHandler>> = preflight
    ? { ...declared, OPTIONS: preflight }
    : declared;
  const methods = Object.keys(handlers) as ApiMethod[];
  const operations = Object.fromEntries(
    Object.entries(declared).map(([method, handler]) => [method, handler.operation]),
  );
  const entry = async (args: ApiArgs) => {
    const method = args.request.method === 'HEAD' ? 'GET' : args.request.method;
    const handler = handlers[method as ApiMethod];
    const response = handler
      ? withBudget(args.request, await handleApi(async () => handler(args)))
      : apiErrorResponse(405, 'Method not allowed', undefined, {
          headers: { Allow: methods.join(', ') },
        });
    return finish ? finish(response, methods) : response;
  };
  const both = Object.assign(entry, { methods, operations });
  return { loader: both, action: both };
}

/**
 * A single resource for GET: JSON with a weak ETag, and 304 without a body when the client's
 * `If-None-Match` names it (the answer is private, so only the client itself keeps it).
 */
export function jsonWithEtag(request: Request, data: unknown): Response {
  return conditionalResponse(request, JSON.stringify(data), {
    headers: new Headers({ 'Content-Type': 'application/json; charset=utf-8' }),
  });
}
