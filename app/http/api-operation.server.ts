import type { z } from 'zod';
import { EXAMPLE_IDS, SCHEMA_EXAMPLES } from '~/schemas/api-examples';
import type { UserRole } from '~/schemas/user';
import type { Scoped } from '~/lib/tenancy.server';
import { encodeSyncCursor } from '~/schemas/sync';
import type { ApiHandler } from './api.server';

/**
 * One method of an API route as it is declared beside its route: what the server checks (who
 * may call it, its ids, query and body, whether an Idempotency-Key replays it) and what the
 * OpenAPI document says of it (summary, description, answers with their schemas and examples,
 * error statuses, headers, media types). The runtime reads the first part; the document
 * (openapi.server.ts) is assembled from all of it, so an operation is written once.
 */

type JsonSchema = Record<string, unknown>;

/**
 * Who may call a method: the least role ('viewer' being anyone signed in, with a token, an API key
 * or the staff session), or the admin areas' `ADMIN_AREA`, which also needs an API key's admin
 * scope; 'public' for the endpoints that take no credential.
 */
export type Access =
  | UserRole
  | {
      role: UserRole;
      scope?: 'admin';
      accounts?: true;
      /** The office's figures: every role from `role` up but couriers (403). */
      office?: true;
    };

/** Users, API keys and webhooks: the admin role, and with an API key its admin scope. */
export const ADMIN_AREA: Access = { role: 'admin', scope: 'admin' };

/**
 * What a shipper account may also do, within its own parcels (app/lib/tenancy.server.ts): staff
 * with at least `role`, or an account's user or key, whose every read and change is scoped to
 * its account and mode. Any other route refuses an account with 403 naming the staff role.
 */
export const forAccounts = (role: UserRole): Access => ({ role, accounts: true });
/** The account's own webhooks: admins (with a key's admin scope), or an account for its own. */
export const WEBHOOKS_AREA: Access = { role: 'admin', scope: 'admin', accounts: true };

/**
 * A URL parameter that names a record: what it is called in a 400 when it is not a 24-hex id, or
 * how it is read into one (`resolveParcelRef`, which also takes a tracking number).
 */
export type IdParam =
  string | ((value: string | undefined, name: string, actor: Scoped) => Promise<string>);

/** An answer's schema and the example that goes with it. */
export type Shape = { schema: JsonSchema; example?: unknown };
/** An answer: a schema of components (by name, its example from api-examples.ts) or a shape. */
export type Answer = string | Shape;

/** What the document says of an operation besides what the server checks. */
export type OperationDoc = {
  summary: string;
  description: string;
  /** Success status → its answer. */
  responses: Record<number, Answer>;
  /** Error statuses of its own, besides those every operation of its kind may answer. */
  errors?: number[];
  /** Error statuses whose answer has its own shape. */
  errorAnswers?: Record<number, Answer>;
  bodyExample?: unknown;
  bodyOptional?: boolean;
  /** A JSON body the handler reads itself, after checks of its own (readJsonBody). */
  readsBody?: z.ZodType;
  /** A query the handler reads itself (one that takes a parameter repeated). */
  readsQuery?: z.ZodType;
  /** A request body that is not JSON: its media type, schema, example and what it holds. */
  rawBody?: { contentType: string; schema: JsonSchema; description: string; example: unknown };
  /** The success answer's media type, when it is not JSON. */
  contentType?: string;
  /** The success answer in other media types too (asked for with `?format=`), by type. */
  alsoAs?: Record<string, Shape>;
  /** A single resource answered with an ETag (304 for If-None-Match). */
  etag?: boolean;
  /** A change that honours If-Match (412 when the record changed since). */
  ifMatch?: boolean;
  /** An answer that carries RateLimit-* though the operation is public. */
  rateLimited?: boolean;
  /** Callable from other sites' pages (CORS). */
  cors?: boolean;
};

/** What the server checks, as the document states it. */
export type OperationChecks = {
  access: Access | 'public';
  ids?: Record<string, IdParam>;
  query?: z.ZodType;
  body?: z.ZodType;
  idempotent?: boolean;
  temporaryPassword?: boolean;
};

export type ApiOperation = OperationDoc & OperationChecks;

/** A handler together with its declaration: what an API route is made of. */
export type DeclaredHandler = ApiHandler & { operation: ApiOperation };

/** A handler written by hand (public endpoints, sign-in), declared for the document. */
export function declared(operation: ApiOperation, handler: ApiHandler): DeclaredHandler {
  return Object.assign(handler, { operation });
}

// The answers that recur, as the API conventions have them.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const example = (name: string) => SCHEMA_EXAMPLES[name];

/** An object schema whose properties are all required unless `required` says which. */
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export { ref };

/** A schema of components by name, with its example. */
export const named = (name: string): Shape => ({ schema: ref(name), example: example(name) });

/** One record wrapped under its key: `{parcel}`. */
export const wrap = (key: string, item: string): Shape => ({
  schema: obj({ [key]: ref(item) }),
  example: { [key]: example(item) },
});

/** Every record, in one list that takes no paging. */
export const items = (key: string, item: string): Shape => ({
  schema: obj({ [key]: { type: 'array', items: ref(item) } }),
  example: { [key]: [example(item)] },
});

/** A page of a list: `{<key>: [...], pagination}`. */
export const list = (key: string, item: string): Shape => ({
  schema: obj({ [key]: { type: 'array', items: ref(item) }, pagination: ref('Pagination') }),
  example: { [key]: [example(item)], pagination: example('Pagination') },
});

/** `{success, message}`, and the record deleted under its key when the answer carries it. */
export const deleted = (key?: string, item?: string): Shape =>
  key && item
    ? {
        schema: { allOf: [ref('Success'), obj({ [key]: ref(item) })] },
        example: { ...(example('Success') as object), [key]: example(item) },
      }
    : named('Success');

/** A file of the media type given. */
export const file = (contentMediaType: string): Shape => ({
  schema: { type: 'string', contentMediaType },
});

const SYNC_CURSOR_EXAMPLE = encodeSyncCursor({
  list: 'parcels',
  seq: 4182,
  id: EXAMPLE_IDS.parcel,
});

/** What every list a sync follows says about it. */
export const SYNC_NOTE =
  ' To keep a copy in sync, start with `updatedSince` (any instant before what you hold) and follow `nextCursor` as `cursor`: every change, deletions included (`deleted: true`, for 30 days), comes once, in the order changes were made, however much is written meanwhile. Page numbers are for people reading a list: they shift while the list changes.';

/**
 * A page of a list a sync follows: with `updatedSince` or `cursor`, the changes in the order
 * they were made, deletions among them, and where to go on.
 */
export const syncedList = (key: string, item: string): Shape => ({
  schema: obj(
    {
      [key]: {
        type: 'array',
        items: { anyOf: [ref(item), ref('DeletedRecord')] },
        description: 'With updatedSince or cursor, deleted records are listed too (deleted: true)',
      },
      pagination: ref('Pagination'),
      nextCursor: {
        type: 'string',
        description:
          'With updatedSince or cursor: send it back as `cursor` for the changes after this page (when hasMore is false, for those made from now on)',
      },
      hasMore: {
        type: 'boolean',
        description: 'With updatedSince or cursor: whether more changes are ready after this page',
      },
    },
    [key, 'pagination'],
  ),
  example: {
    [key]: [example(item), example('DeletedRecord')],
    pagination: { ...(example('Pagination') as object), totalItems: 2 },
    nextCursor: SYNC_CURSOR_EXAMPLE,
    hasMore: false,
  },
});
