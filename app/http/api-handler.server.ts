import { json } from '@remix-run/node';
import type { z } from 'zod';
import {
  ApiError,
  found,
  jsonWithEtag,
  parseQuery,
  readJsonBody,
  requireObjectId,
  type ApiArgs,
} from './api.server';
import { etagFor, matchesIfMatch } from '~/lib/http-cache.server';
import type { Actor } from '~/services/audit.server';
import {
  ADMIN_AREA,
  declared,
  items,
  SYNC_NOTE,
  syncedList,
  wrap,
  type Access,
  type DeclaredHandler,
  type IdParam,
  type OperationDoc,
} from './api-operation.server';

import { OFFICE_FIGURES_ONLY, requireAdminScope, requireApiUser, requireRole } from './auth.server';
import { idempotent } from './idempotency.server';

export { ADMIN_AREA, type Access, type IdParam };

type Schema = z.ZodType | undefined;

async function readIds<K extends string>(
  params: ApiArgs['params'],
  spec: Record<K, IdParam>,
  actor: Actor,
): Promise<Record<K, string>> {
  const entries = await Promise.all(
    Object.entries<IdParam>(spec).map(async ([name, read]) => [
      name,
      typeof read === 'string'
        ? requireObjectId(params[name], read)
        : await read(params[name], name, actor),
    ]),
  );
  return Object.fromEntries(entries) as Record<K, string>;
}

type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler of an API route is told: the request, and what the declaration checked. */
export type ApiCall<K extends string, Q extends Schema, B extends Schema> = ApiArgs & {
  /** The caller, as the Actor its service records a change under. */
  actor: Actor;
  ids: Record<K, string>;
  query: Parsed<Q>;
  body: Parsed<B>;
};

/**
 * One method of an API route, as Shelf writes its JSON endpoints: authenticate, parse with the
 * shared zod schemas, call the service, answer JSON. The declaration says who may (`role`, an
 * `Access`; `temporaryPassword` for the two requests an account on one may make), which URL
 * parameters are ids (`{ id: 'parcel id' }`, a 400 naming it otherwise), the query and
 * JSON body schemas, and whether an Idempotency-Key may replay it; they are checked in that order
 * (401/403, 400 for an id or the query, then the body inside the idempotent part) before `run`.
 * The rest of it (summary, description, answers) is what the OpenAPI document says of it.
 */
export function apiHandler<
  K extends string = never,
  Q extends Schema = undefined,
  B extends Schema = undefined,
>(
  spec: OperationDoc & {
    role: Access;
    temporaryPassword?: boolean;
    ids?: Record<K, IdParam>;
    query?: Q;
    body?: B;
    idempotent?: boolean;
  },
  run: (call: ApiCall<K, Q, B>) => Promise<Response> | Response,
): DeclaredHandler {
  const { role: access, ...rest } = spec;
  return declared({ ...rest, access }, async (args) => {
    const access = typeof spec.role === 'string' ? { role: spec.role } : spec.role;
    const user = await requireApiUser(args.request, {
      allowTemporaryPassword: spec.temporaryPassword,
    });
    // An account acts only where the route lets accounts in, and there within its own scope.
    const asAccount = !!user.account && !!access.accounts;
    if (!asAccount) requireRole(user, access.role, 'api');
    if (access.scope && !asAccount) requireAdminScope(args.request);
    if (access.office && user.role === 'courier') throw new ApiError(403, OFFICE_FIGURES_ONLY);
    const actor: Actor = { user, context: args.context, via: 'api' };
    const ids = await readIds(args.params, spec.ids ?? ({} as Record<K, IdParam>), actor);
    const query = (spec.query ? parseQuery(args.request, spec.query) : undefined) as Parsed<Q>;
    const answer = async () => {
      const body = (
        spec.body ? await readJsonBody(args.request, spec.body) : undefined
      ) as Parsed<B>;
      return run({ ...args, actor, ids, query, body });
    };
    return spec.idempotent ? idempotent(args.request, answer) : answer();
  });
}

/** What a list's GET says of itself: its summary and description. */
type ListDoc = Pick<OperationDoc, 'summary' | 'description'>;

/** GET of every record of a kind in one list under `key`, without paging: `{apiKeys: [...]}`. */
export function apiEvery(
  role: Access,
  key: string,
  item: string,
  list: (actor: Actor) => Promise<unknown[]>,
  doc: ListDoc,
) {
  return apiHandler({ role, responses: { 200: items(key, item) }, ...doc }, async ({ actor }) =>
    json({ [key]: await list(actor) }),
  );
}

/**
 * GET of a list a sync follows: a page of `list`, or, with `updatedSince` or `cursor`, a page of
 * the `changes` in the order they were made (deletions among them) and where to go on. Its
 * description says how to keep a copy in sync.
 */
export function apiSyncedList<Q extends z.ZodType<{ cursor?: unknown; updatedSince?: Date }>>(
  role: Access,
  {
    query,
    key,
    item,
    list,
    changes,
    summary,
    description,
  }: ListDoc & {
    query: Q;
    key: string;
    item: string;
    list: (query: z.output<Q>, actor: Actor) => Promise<unknown>;
    changes: (query: z.output<Q>, actor: Actor) => Promise<unknown>;
  },
) {
  return apiHandler(
    {
      role,
      query,
      summary,
      description: `${description}${SYNC_NOTE}`,
      responses: { 200: syncedList(key, item) },
    },
    async ({ query, actor }) => {
      const read = query as z.output<Q>;
      return json(
        read.cursor || read.updatedSince ? await changes(read, actor) : await list(read, actor),
      );
    },
  );
}

/** What a record's route says of one method: its texts, and its answers when not the usual. */
type RecordDoc = Pick<OperationDoc, 'summary' | 'description'> & Partial<OperationDoc>;

/**
 * The methods of one record's route (`/api/<records>/:id`), as the API conventions have them: the
 * record comes wrapped under `key` (`{parcel}`), described by the schema `item` ('Parcel'); an id
 * that is not one is a 400 naming `idLabel`, one that names nothing a 404 saying `notFound`.
 */
export function apiRecord(
  key: string,
  {
    item,
    label = key,
    idLabel = `${label} id`,
    notFound = `${label[0].toUpperCase()}${label.slice(1)} not found`,
  }: {
    /** The response schema's name (its OpenAPI component). */
    item: string;
    /** How the record is named in messages: `key` unless given. */
    label?: string;
    /** The id parameter's label, or how the id is resolved: "<label> id" unless given. */
    idLabel?: IdParam;
    /** The 404's message: "<Label> not found" unless given. */
    notFound?: string;
  },
) {
  const ids = { id: idLabel };
  const one = wrap(key, item);
  return {
    /** GET: the record, with an ETag (304 while it is unchanged) unless `etag` is false. */
    get: (
      role: Access,
      load: (id: string) => Promise<unknown>,
      { etag = true, ...doc }: RecordDoc & { etag?: boolean },
    ) =>
      apiHandler(
        { role, ids, etag, responses: { 200: one }, errors: [404], ...doc },
        async ({ request, ids }) => {
          const record = { [key]: await found(load(ids.id), notFound) };
          return etag ? jsonWithEtag(request, record) : json(record);
        },
      ),
    /**
     * PUT: the fields the body gives change; the record as it is now. With `versioned` (the
     * record as GET answers it, and its stored version), If-Match is honoured: an ETag that is
     * not the record's now is a 412, and `save` gets the version it named, so a change made
     * between this check and the write is a 412 too (StaleRecordError).
     */
    update: <B extends z.ZodType>(
      role: Access,
      body: B,
      save: (
        id: string,
        input: z.output<B>,
        actor: Actor,
        options: { version?: number | null },
      ) => Promise<unknown>,
      {
        versioned,
        ...doc
      }: RecordDoc & {
        versioned?: (id: string) => Promise<{ record: unknown; version: number | null } | null>;
      },
    ) =>
      apiHandler(
        { role, ids, body, ifMatch: !!versioned, responses: { 200: one }, errors: [404], ...doc },
        async ({ request, ids, body, actor }) => {
          const ifMatch = request.headers.get('If-Match');
          let version: number | null | undefined;
          if (ifMatch !== null && versioned) {
            const now = await found(versioned(ids.id), notFound);
            if (!matchesIfMatch(ifMatch, etagFor(JSON.stringify({ [key]: now.record }))))
              throw new ApiError(
                412,
                `The ${key} was changed since the version If-Match names: GET it again`,
              );
            if (ifMatch.trim() !== '*') version = now.version;
          }
          return json({
            [key]: await found(save(ids.id, body as z.output<B>, actor, { version }), notFound),
          });
        },
      ),
    /**
     * DELETE (or another change of the record's state): `answer` to what it did, by default the
     * record under its key; `{success, message}` when the answer is `deleted`.
     */
    change: <T>(
      role: Access,
      change: (id: string, actor: Actor) => Promise<T | null | undefined>,
      {
        answer = (changed) => ({ [key]: changed }),
        ...doc
      }: RecordDoc & { answer?: (changed: T) => Record<string, unknown> },
    ) =>
      apiHandler(
        { role, ids, responses: { 200: one }, errors: [404], ...doc },
        async ({ ids, actor }) => json(answer(await found(change(ids.id, actor), notFound))),
      ),
  };
}
