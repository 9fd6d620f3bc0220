import { json, type LoaderFunctionArgs } from '@remix-run/node';
import mongoose from 'mongoose';
import { z } from 'zod';
import { isDuplicateKey, isObjectId } from './db.server';
import { ConflictError } from './errors.server';
import { conditionalResponse } from './http-cache.server';

/** What an API error says besides its status, message and per-field `details`. */
export type ApiErrorOptions = {
  /** Headers of the answer (Retry-After, Allow). */
  headers?: HeadersInit;
  /** A stable snake_case name a client can act on (`password_change_required`). */
  code?: string;
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

/**
 * The one JSON error body of the API, `{error, message, code?, details?}` (`error` and `message`
 * the same text, read by the spec's clients): every failure of every API route is answered here.
 */
export function apiErrorResponse(
  status: number,
  message: string,
  details?: Record<string, string[]>,
  { headers, code, extra }: ApiErrorOptions = {},
) {
  const init = new Headers(headers);
  // RFC 6750: a 401 names the scheme the API takes.
  if (status === 401 && !init.has('WWW-Authenticate')) init.set('WWW-Authenticate', 'Bearer');
  return json(
    {
      error: message,
      message,
      ...(code ? { code } : {}),
      ...(details ? { details } : {}),
      ...extra,
    },
    { status, headers: init },
  );
}

/** Per-field messages from a zod error, keyed by dotted path ('' for the whole body). */
function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    (details[key] ??= []).push(issue.message);
  }
  return details;
}

export function validationError(error: z.ZodError): ApiError {
  return new ApiError(400, 'Validation failed', fieldErrors(error));
}

function isDatabaseDown(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  return /MongoServerSelectionError|MongoNetworkError|MongoNotConnectedError|MongoTopologyClosedError/.test(
    name,
  );
}

/** Turns anything thrown by an API handler into the one JSON error shape. */
export function toApiErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof ApiError)
    return apiErrorResponse(error.status, error.message, error.details, error.options);
  if (error instanceof ConflictError) return apiErrorResponse(409, error.message);
  if (error instanceof z.ZodError)
    return apiErrorResponse(400, 'Validation failed', fieldErrors(error));
  if (error instanceof mongoose.Error.CastError)
    return apiErrorResponse(400, `Invalid ${error.path}`);
  if (error instanceof mongoose.Error.ValidationError) {
    const details = Object.fromEntries(
      Object.entries(error.errors).map(([k, v]) => [k, [v.message]]),
    );
    return apiErrorResponse(400, 'Validation failed', details);
  }
  if (isDuplicateKey(error))
    return apiErrorResponse(409, 'A record with that value already exists');
  if (isDatabaseDown(error)) return apiErrorResponse(503, 'Database unavailable');
  console.error(error);
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

/** Reads a JSON body and validates it; 415, 413 and 400 as the API conventions say. */
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
    throw new ApiError(400, 'Request body is not valid JSON');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
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

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
export type ApiArgs = Pick<LoaderFunctionArgs, 'request' | 'params' | 'context'>;
export type ApiHandler = (args: ApiArgs) => Promise<Response> | Response;
/** A route's loader and action: one function, which also says the methods it answers. */
export type ApiEntry = ((args: ApiArgs) => Promise<Response>) & { methods: ApiMethod[] };

/**
 * An API route from its handlers, one per method, in the order its `Allow` header lists them:
 *
 *     export const { loader, action } = apiRoute({ GET: …, PUT: …, DELETE: … });
 *
 * Remix gives GET and HEAD (and OPTIONS) to the loader, the other methods to the action; both are
 * this one function. HEAD is answered by GET. A method the route does not declare is a 405 whose
 * `Allow` names those it does, before anything else is read; whatever a handler throws becomes the
 * one JSON error shape. `finish` settles every answer, those included (the public endpoints' CORS
 * and caching).
 */
export function apiRoute(
  handlers: Partial<Record<ApiMethod, ApiHandler>>,
  { finish }: { finish?: (response: Response, methods: ApiMethod[]) => Response } = {},
): { loader: ApiEntry; action: ApiEntry } {
  const methods = Object.keys(handlers) as ApiMethod[];
  const entry = async (args: ApiArgs) => {
    const method = args.request.method === 'HEAD' ? 'GET' : args.request.method;
    const handler = handlers[method as ApiMethod];
    const response = handler
      ? await handleApi(async () => handler(args))
      : apiErrorResponse(405, 'Method not allowed', undefined, {
          headers: { Allow: methods.join(', ') },
        });
    return finish ? finish(response, methods) : response;
  };
  const both = Object.assign(entry, { methods });
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
