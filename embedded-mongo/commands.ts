import { calculateObjectSize, Long } from 'bson';
import type { IndexSpec } from './collection';
import type { Engine } from './engine';
import { fail, toMongoError } from './errors';
import { notImplemented } from './expression-support';
import { compileFilter } from './filter';
import { aggregate, validatePipeline } from './pipeline';
import { compileProjection, project, type Projector } from './projection';
import { applyUpdate, isOperatorUpdate, upsertSeed, validateUpdate } from './update';
import {
  cloneDoc,
  isNumeric,
  isPlainObject,
  keyOf,
  newId,
  pathValues,
  sortDocs,
  withIdFirst,
  type Doc,
} from './values';

export const LIMITS = {
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
};

const MAX_BATCH_BYTES = LIMITS.maxBsonObjectSize - 64 * 1024;
const VERSION = '7.0.0';

export interface CommandContext {
  connectionId: number;
}

type Handler = (engine: Engine, cmd: Doc, db: string, ctx: CommandContext) => Doc;

function asNumber(v: unknown, fallback = 0): number {
  if (v === undefined || v === null) return fallback;
  const n = v instanceof Long ? v.toNumber() : Number(v);
  return Number.isFinite(n) ? n : fallback;
}

function asDoc(v: unknown, what: string): Doc | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) fail(14, `${what} must be an object`);
  return v;
}

function collName(cmd: Doc, key: string): string {
  const name = cmd[key];
  if (typeof name !== 'string') fail(73, `collection name has invalid type ${typeof name}`);
  return name;
}

/**
 * Options that change what a command answers and that this engine does not implement are
 * refused, never ignored. A collation is accepted only when it is the simple (binary) one.
 */
function refuseUnsupported(spec: Doc, command: string): void {
  const collation = spec.collation;
  if (collation !== undefined && collation !== null) {
    if (!isPlainObject(collation)) fail(14, `BSON field '${command}.collation' is the wrong type`);
    const simple = collation.locale === 'simple' && Object.keys(collation).length === 1;
    if (!simple) notImplemented(`Collation (${JSON.stringify(collation)})`);
  }
  if (spec.hint !== undefined && spec.hint !== null) notImplemented(`The ${command} option hint`);
  for (const option of ['let', 'min', 'max', 'returnKey', 'showRecordId', 'tailable', 'awaitData'])
    if (spec[option] !== undefined && spec[option] !== null && spec[option] !== false)
      notImplemented(`The ${command} option ${option}`);
}

/** A sort specification as MongoDB accepts it: each key 1 or -1. */
function checkSort(sort: Doc | undefined): void {
  if (!sort) return;
  for (const [k, v] of Object.entries(sort)) {
    if (isPlainObject(v)) notImplemented(`Sorting by {${k}: ${JSON.stringify(v)}}`);
    const n = isNumeric(v) ? Number(v) : NaN;
    if (n !== 1 && n !== -1)
      fail(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
  }
}

function checkSize(doc: Doc): void {
  const size = calculateObjectSize(doc);
  if (size > LIMITS.maxBsonObjectSize)
    fail(
      10334,
      `object to insert too large. size in bytes: ${size}, max size: ${LIMITS.maxBsonObjectSize}`,
    );
}

export function helloReply(ctx: CommandContext, legacyName: boolean): Doc {
  return {
    helloOk: true,
    ...(legacyName ? { ismaster: true } : { isWritablePrimary: true }),
    maxBsonObjectSize: LIMITS.maxBsonObjectSize,
    maxMessageSizeBytes: LIMITS.maxMessageSizeBytes,
    maxWriteBatchSize: LIMITS.maxWriteBatchSize,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

function takeBatch(
  docs: Doc[],
  pos: number,
  batchSize: number,
  projection: Projector | null,
): { batch: Doc[]; pos: number } {
  const end = batchSize > 0 ? Math.min(docs.length, pos + batchSize) : docs.length;
  let raw: Doc[];
  if (batchSize > 0) raw = docs.slice(pos, end);
  else {
    raw = [];
    let bytes = 0;
    for (let i = pos; i < end; i++) {
      // The first document always goes out and the running total is not needed after the last,
      // so a batch holding one document (findOne) skips sizing it.
      if (raw.length === 0 && i === end - 1) {
        raw.push(docs[i]!);
        break;
      }
      const size = calculateObjectSize(docs[i]!);
      if (raw.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
      bytes += size;
      raw.push(docs[i]!);
    }
  }
  return { batch: project(raw, projection), pos: pos + raw.length };
}

function cursorReply(
  engine: Engine,
  ns: string,
  docs: Doc[],
  opts: { batchSize?: number; single?: boolean; projection?: Projector | null },
): Doc {
  const size = opts.batchSize ?? 101;
  const projection = opts.projection ?? null;
  const { batch, pos } = takeBatch(docs, 0, opts.single ? 0 : size, projection);
  let id = 0;
  if (pos < docs.length && !opts.single) id = engine.openCursor(ns, docs, pos, projection);
  return { cursor: { firstBatch: batch, id: Long.fromNumber(id), ns }, ok: 1 };
}

function findDocs(
  engine: Engine,
  db: string,
  name: string,
  filter: Doc | undefined,
  sort: Doc | undefined,
  skip: number,
  limit: number,
): Doc[] {
  const coll = engine.collection(db, name);
  if (!coll) {
    compileFilter(filter);
    return [];
  }
  const sorting = sort && Object.keys(sort).length > 0;
  if (sorting && (!filter || Object.keys(filter).length === 0)) {
    return coll.sorted(sort!).slice(skip, limit > 0 ? skip + limit : undefined);
  }
  let docs = sorting ? coll.matching(filter!) : coll.find(filter, limit > 0 ? skip + limit : 0);
  if (sorting) docs = sortDocs(docs, sort!, limit > 0 ? skip + limit : 0);
  if (skip > 0 || limit > 0) docs = docs.slice(skip, limit > 0 ? skip + limit : undefined);
  return docs;
}

const find: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'find');
  const filter = asDoc(cmd.filter, 'filter');
  const sort = asDoc(cmd.sort, 'sort');
  refuseUnsupported(cmd, 'find');
  checkSort(sort);
  const projection = compileProjection(asDoc(cmd.projection, 'projection'), filter);
  const skip = asNumber(cmd.skip);
  if (skip < 0) fail(2, 'skip value must be non-negative');
  let limit = asNumber(cmd.limit);
  let single = cmd.singleBatch === true;
  if (limit < 0) {
    limit = -limit;
    single = true;
  }
  const docs = findDocs(engine, db, name, filter, sort, skip, limit);
  const batchSize = cmd.batchSize === undefined ? undefined : asNumber(cmd.batchSize);
  return cursorReply(engine, `${db}.${name}`, docs, {
    batchSize,
    single,
    projection,
  });
};

const getMore: Handler = (engine, cmd, db) => {
  const id = asNumber(cmd.getMore);
  const cursor = engine.cursor(id);
  if (!cursor) fail(43, `cursor id ${id} not found`);
  const { batch, pos } = takeBatch(
    cursor.docs,
    cursor.pos,
    asNumber(cmd.batchSize),
    cursor.projection as Projector | null,
  );
  cursor.pos = pos;
  const done = pos >= cursor.docs.length;
  if (done) engine.closeCursor(id);
  return {
    cursor: {
      nextBatch: batch,
      id: Long.fromNumber(done ? 0 : id),
      ns: cursor.ns ?? `${db}.${String(cmd.collection)}`,
    },
    ok: 1,
  };
};

const killCursors: Handler = (engine, cmd) => {
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of Array.isArray(cmd.cursors) ? cmd.cursors : []) {
    const id = asNumber(raw);
    (engine.closeCursor(id) ? killed : notFound).push(Long.fromNumber(id));
  }
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

function writeReply(n: number, errors: Doc[], extra: Doc = {}): Doc {
  const reply: Doc = { n, ...extra };
  if (errors.length) reply.writeErrors = errors;
  reply.ok = 1;
  return reply;
}

/** A write command's statements (`insert.documents`, `update.updates`, `delete.deletes`). */
function statementsOf(cmd: Doc, command: string, field: string): unknown[] {
  const statements = cmd[field];
  if (!Array.isArray(statements))
    fail(9, `BSON field '${command}.${field}' is missing but a required field`);
  return statements;
}

/** Runs each statement, its error kept as a write error; an ordered batch stops at the first. */
function runStatements(
  cmd: Doc,
  statements: unknown[],
  run: (statement: unknown, index: number) => void,
): Doc[] {
  const ordered = cmd.ordered !== false;
  const errors: Doc[] = [];
  statements.forEach((statement, index) => {
    if (ordered && errors.length) return;
    try {
      run(statement, index);
    } catch (err) {
      errors.push(toMongoError(err).toWriteError(index));
    }
  });
  return errors;
}

const insert: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'insert');
  const docs = statementsOf(cmd, 'insert', 'documents');
  if (docs.length > LIMITS.maxWriteBatchSize)
    fail(
      16,
      `Write batch sizes must be between 1 and ${LIMITS.maxWriteBatchSize}. Got ${docs.length} operations.`,
    );
  const coll = engine.ensureCollection(db, name);
  let n = 0;
  const errors = runStatements(cmd, docs, (raw) => {
    if (!isPlainObject(raw)) fail(2, 'document to insert must be an object');
    checkSize(raw);
    const doc = raw._id === undefined ? withIdFirst(raw, newId()) : raw;
    if (Array.isArray(doc._id) || doc._id instanceof RegExp) fail(2, `can't use an array for _id`);
    engine.insert(coll, doc);
    n++;
  });
  return writeReply(n, errors);
};

interface UpsertResult {
  doc: Doc;
}

function buildUpsert(filter: Doc, u: unknown, arrayFilters: Doc[] | undefined): UpsertResult {
  const seed = upsertSeed(filter);
  let doc: Doc;
  if (Array.isArray(u) || isOperatorUpdate(u)) {
    doc = applyUpdate(seed, u, { filter, arrayFilters, inserting: true }).doc;
  } else {
    doc = cloneDoc(u as Doc);
    if (doc._id === undefined && seed._id !== undefined) doc = withIdFirst(doc, seed._id);
  }
  if (doc._id === undefined) doc = withIdFirst(doc, newId());
  else if (Object.keys(doc)[0] !== '_id') doc = withIdFirst(doc, doc._id);
  checkSize(doc);
  return { doc };
}

const update: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'update');
  const updates = statementsOf(cmd, 'update', 'updates');
  if (cmd.let !== undefined && cmd.let !== null) notImplemented('The update option let');
  const upserted: Doc[] = [];
  let n = 0;
  let nModified = 0;
  const errors = runStatements(cmd, updates, (spec, index) => {
    if (!isPlainObject(spec)) fail(9, 'update statement must be an object');
    const filter = asDoc(spec.q, 'q') ?? {};
    const u = spec.u;
    refuseUnsupported(spec, 'update');
    validateUpdate(u);
    if (Array.isArray(u)) validatePipeline(u);
    const multi = spec.multi === true;
    if (multi && !Array.isArray(u) && !isOperatorUpdate(u))
      fail(9, 'multi update is not supported for replacement-style update');
    const arrayFilters = spec.arrayFilters as Doc[] | undefined;
    const coll = engine.collection(db, name);
    const matches = coll ? coll.find(filter, multi ? 0 : 1) : (compileFilter(filter), []);
    if (matches.length === 0) {
      if (spec.upsert === true) {
        const { doc } = buildUpsert(filter, u, arrayFilters);
        engine.insert(engine.ensureCollection(db, name), doc);
        n++;
        upserted.push({ index, _id: doc._id });
      }
      return;
    }
    for (const old of matches) {
      const { doc, changed } = applyUpdate(old, u, { filter, arrayFilters, inserting: false });
      n++;
      if (changed) {
        checkSize(doc);
        engine.replace(coll!, old, doc);
        nModified++;
      }
    }
  });
  return writeReply(n, errors, { nModified, ...(upserted.length ? { upserted } : {}) });
};

const del: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'delete');
  const deletes = statementsOf(cmd, 'delete', 'deletes');
  if (cmd.let !== undefined && cmd.let !== null) notImplemented('The delete option let');
  let n = 0;
  const errors = runStatements(cmd, deletes, (spec) => {
    if (!isPlainObject(spec)) fail(9, 'delete statement must be an object');
    refuseUnsupported(spec, 'delete');
    const coll = engine.collection(db, name);
    if (!coll) {
      compileFilter(asDoc(spec.q, 'q'));
      return;
    }
    const limit = asNumber(spec.limit);
    if (limit !== 0 && limit !== 1) fail(9, 'The limit field in delete objects must be 0 or 1');
    for (const doc of coll.find(asDoc(spec.q, 'q') ?? {}, limit)) {
      engine.remove(coll, doc);
      n++;
    }
  });
  return writeReply(n, errors);
};

function projectOne(doc: Doc | null, fields: Projector | null): Doc | null {
  if (!doc) return null;
  return project([doc], fields)[0] ?? null;
}

const findAndModify: Handler = (engine, cmd, db) => {
  const name =
    typeof cmd.findAndModify === 'string' ? cmd.findAndModify : collName(cmd, 'findandmodify');
  const filter = asDoc(cmd.query, 'query') ?? {};
  const sort = asDoc(cmd.sort, 'sort');
  const remove = cmd.remove === true;
  const u = cmd.update;
  if (remove && u !== undefined) fail(9, 'Cannot specify both an update and remove=true');
  if (!remove && u === undefined) fail(9, 'Either an update or remove=true must be specified');
  if (remove && cmd.upsert === true) fail(9, 'Cannot specify both upsert=true and remove=true');
  refuseUnsupported(cmd, 'findAndModify');
  checkSort(sort);
  if (!remove) validateUpdate(u);
  if (Array.isArray(u)) validatePipeline(u);
  const fields = compileProjection(asDoc(cmd.fields, 'fields'), filter);
  const arrayFilters = cmd.arrayFilters as Doc[] | undefined;
  const returnNew = cmd.new === true;
  const coll = engine.collection(db, name);
  const old = coll ? (findDocs(engine, db, name, filter, sort, 0, 1)[0] ?? null) : null;
  if (!old) {
    if (!remove && cmd.upsert === true) {
      const { doc } = buildUpsert(filter, u, arrayFilters);
      engine.insert(engine.ensureCollection(db, name), doc);
      return {
        lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
        value: returnNew ? projectOne(doc, fields) : null,
        ok: 1,
      };
    }
    return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  }
  if (remove) {
    engine.remove(coll!, old);
    return { lastErrorObject: { n: 1 }, value: projectOne(old, fields), ok: 1 };
  }
  const { doc, changed } = applyUpdate(old, u, { filter, arrayFilters, inserting: false });
  if (changed) {
    checkSize(doc);
    engine.replace(coll!, old, doc);
  }
  return {
    lastErrorObject: { n: 1, updatedExisting: true },
    value: projectOne(returnNew ? doc : old, fields),
    ok: 1,
  };
};

/**
 * `[$skip?, $limit?, {$group: {_id: <constant>, n: {$sum: 1}}}]` after the $match — the pipeline
 * countDocuments sends — answered without copying every matching document into mingo.
 */
function countOnly(input: Doc[], stages: Doc[]): Doc[] | null {
  let skip = 0;
  let limit = Infinity;
  let i = 0;
  for (; i < stages.length - 1; i++) {
    const stage = stages[i]!;
    const keys = Object.keys(stage);
    if (keys.length !== 1) return null;
    if (
      typeof stage.$skip === 'number' &&
      Number.isInteger(stage.$skip) &&
      stage.$skip >= 0 &&
      limit === Infinity
    )
      skip += stage.$skip;
    else if (typeof stage.$limit === 'number' && Number.isInteger(stage.$limit) && stage.$limit > 0)
      limit = Math.min(limit, stage.$limit);
    else return null;
  }
  const group = stages[i]?.$group;
  if (!isPlainObject(group) || Object.keys(stages[i]!).length !== 1) return null;
  const fields = Object.keys(group);
  if (fields.length !== 2 || !fields.includes('_id')) return null;
  const id = group._id;
  const constantId =
    id === null || typeof id === 'number' || (typeof id === 'string' && !id.startsWith('$'));
  if (!constantId) return null;
  const field = fields.find((f) => f !== '_id')!;
  const acc = group[field];
  if (!isPlainObject(acc) || Object.keys(acc).length !== 1 || acc.$sum !== 1) return null;
  const n = Math.min(Math.max(0, input.length - skip), limit);
  return n === 0 ? [] : [{ _id: id, [field]: n }];
}

const aggregateCmd: Handler = (engine, cmd, db) => {
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline)) fail(14, "'pipeline' option must be specified as an array");
  validatePipeline(pipeline);
  if (cmd.explain === true) fail(115, 'explain is not supported by this database engine');
  refuseUnsupported(cmd, 'aggregate');
  const cursorOpts = asDoc(cmd.cursor, 'cursor');
  if (!cursorOpts)
    fail(9, "The 'cursor' option is required, except for aggregate with the explain argument");
  const name = typeof cmd.aggregate === 'string' ? cmd.aggregate : null;
  let stages = pipeline as Doc[];
  let input: Doc[] = [];
  if (name) {
    const coll = engine.collection(db, name);
    if (coll) {
      const first = stages[0];
      if (first && isPlainObject(first.$match)) {
        input = coll.matching(first.$match);
        stages = stages.slice(1);
      } else input = [...coll.docs.values()];
    }
  } else if (stages[0] && !('$documents' in stages[0])) {
    fail(
      73,
      `{aggregate: 1} is not valid for '${Object.keys(stages[0])[0]}'; a collection is required.`,
    );
  }
  const resolver = (other: string): Doc[] =>
    [...(engine.collection(db, other)?.docs.values() ?? [])].map(cloneDoc);
  const counted = countOnly(input, stages);
  const out = counted ?? (stages.length ? aggregate(input, stages, resolver) : input);
  const ns = `${db}.${name ?? '$cmd.aggregate'}`;
  return cursorReply(engine, ns, out, {
    batchSize: cursorOpts.batchSize === undefined ? undefined : asNumber(cursorOpts.batchSize),
  });
};

const count: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'count');
  refuseUnsupported(cmd, 'count');
  const query = asDoc(cmd.query, 'query');
  const coll = engine.collection(db, name);
  if (!coll) {
    compileFilter(query);
    return { n: 0, ok: 1 };
  }
  const skip = asNumber(cmd.skip);
  const limit = Math.abs(asNumber(cmd.limit));
  let n: number;
  if (!query || Object.keys(query).length === 0) n = coll.docs.size;
  else n = limit > 0 ? coll.find(query, skip + limit).length : coll.matching(query).length;
  n = Math.max(0, n - skip);
  if (limit > 0) n = Math.min(n, limit);
  return { n, ok: 1 };
};

const distinct: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'distinct');
  const key = cmd.key;
  if (typeof key !== 'string') fail(14, "BSON field 'distinct.key' is the wrong type");
  refuseUnsupported(cmd, 'distinct');
  compileFilter(asDoc(cmd.query, 'query'));
  const coll = engine.collection(db, name);
  const seen = new Map<string, unknown>();
  for (const doc of coll ? coll.find(asDoc(cmd.query, 'query')) : []) {
    for (const v of pathValues(doc, key)) {
      for (const x of Array.isArray(v) ? v : [v]) {
        const k = keyOf(x);
        if (!seen.has(k)) seen.set(k, x);
      }
    }
  }
  return {
    values: sortDocs(
      [...seen.values()].map((v) => ({ v })),
      { v: 1 },
    ).map((d) => d.v),
    ok: 1,
  };
};

/** Collection options kept and listed that change no answer. */
const NEUTRAL_CREATE_OPTIONS = new Set([
  'storageEngine',
  'indexOptionDefaults',
  'idIndex',
  // Without a validator (refused below) these change nothing.
  'validationLevel',
  'validationAction',
]);
/** Collection options MongoDB has that this engine does not implement. */
const REFUSED_CREATE_OPTIONS = new Map<string, string>(
  Object.entries({
    validator: 'Document validation (the validator option, $jsonSchema)',
    capped: 'Capped collections',
    size: 'Capped collections (the size option)',
    max: 'Capped collections (the max option)',
    viewOn: 'Views',
    pipeline: 'Views',
    timeseries: 'Time series collections',
    expireAfterSeconds: 'Collections that expire documents (expireAfterSeconds)',
    clusteredIndex: 'Clustered collections',
    changeStreamPreAndPostImages: 'Change streams',
    encryptedFields: 'Queryable encryption',
    collation: 'Collation',
  }),
);

const create: Handler = (engine, cmd, db) => {
  const name = engine.validateName(db, cmd.create);
  const opts: Doc = {};
  for (const [k, v] of Object.entries(cmd)) {
    if (
      k === 'create' ||
      k === 'lsid' ||
      k === '$db' ||
      k.startsWith('$') ||
      k === 'writeConcern' ||
      k === 'comment' ||
      v === undefined ||
      v === null
    )
      continue;
    if (k === 'capped' && v === false) continue;
    if (k === 'collation' && isPlainObject(v) && v.locale === 'simple') continue;
    if (k === 'validator' && isPlainObject(v) && Object.keys(v).length === 0) continue;
    const refused = REFUSED_CREATE_OPTIONS.get(k);
    if (refused) notImplemented(refused);
    if (!NEUTRAL_CREATE_OPTIONS.has(k))
      fail(40415, `BSON field 'create.${k}' is an unknown field.`);
    opts[k] = v;
  }
  const existing = engine.collection(db, name);
  if (existing) {
    if (keyOf(existing.options) === keyOf(opts)) return { ok: 1 };
    fail(48, `Collection ${db}.${name} already exists.`);
  }
  engine.createCollection(db, name, opts);
  return { ok: 1 };
};

const drop: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'drop');
  const coll = engine.collection(db, name);
  const nIndexesWas = coll ? coll.indexSpecs().length : 0;
  engine.dropCollection(db, name);
  return { ns: `${db}.${name}`, nIndexesWas, ok: 1 };
};

const dropDatabase: Handler = (engine, _cmd, db) => {
  engine.dropDatabase(db);
  return { dropped: db, ok: 1 };
};

const listCollections: Handler = (engine, cmd, db) => {
  const filter = compileFilter(asDoc(cmd.filter, 'filter'));
  const nameOnly = cmd.nameOnly === true;
  const infos = engine
    .collections(db)
    .map((c) =>
      nameOnly
        ? { name: c.name, type: 'collection' }
        : {
            name: c.name,
            type: 'collection',
            options: c.options,
            info: { readOnly: false },
            idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
          },
    )
    .filter((info) => filter(info));
  const batchSize =
    isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
      ? asNumber(cmd.cursor.batchSize)
      : undefined;
  return cursorReply(engine, `${db}.$cmd.listCollections`, infos, { batchSize });
};

function indexName(key: Doc): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}_${String(v)}`)
    .join('_');
}

/** Index options that are kept and listed; `background` is accepted and ignored, as MongoDB does. */
const INDEX_OPTIONS = new Set([
  'v',
  'key',
  'name',
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'background',
  'hidden',
  'storageEngine',
  'ns',
]);
const REFUSED_INDEX_TYPES = new Map<string, string>(
  Object.entries({
    text: 'Text indexes',
    '2d': 'Geospatial (2d) indexes',
    '2dsphere': 'Geospatial (2dsphere) indexes',
    geoHaystack: 'Geospatial (geoHaystack) indexes',
  }),
);

/**
 * Index definitions this engine cannot honour are refused before anything is created: text and
 * geospatial indexes, collations, and options MongoDB does not know.
 */
function checkIndexSpec(raw: unknown): void {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0)
    fail(67, 'Index key pattern must be a non-empty object');
  for (const [field, kind] of Object.entries(raw.key)) {
    if (typeof kind === 'string') {
      const refused = REFUSED_INDEX_TYPES.get(kind);
      if (refused) notImplemented(refused);
      if (kind !== 'hashed') fail(67, `Unknown index plugin '${kind}'`);
      if (raw.unique === true)
        fail(67, 'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.');
    } else if (!isNumeric(kind) || Number(kind) === 0 || Number.isNaN(Number(kind)))
      fail(
        67,
        `Values in the index key pattern can only be positive or negative numbers or strings; found ${field}: ${JSON.stringify(kind)}`,
      );
  }
  for (const [option, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    if (option === 'collation') {
      if (isPlainObject(value) && value.locale === 'simple') continue;
      notImplemented('Collation (index collation)');
    }
    if (option === 'weights' || option === 'default_language' || option === 'language_override')
      notImplemented('Text indexes');
    if (option === 'wildcardProjection') notImplemented('Wildcard indexes (wildcardProjection)');
    if (!INDEX_OPTIONS.has(option))
      fail(197, `The field '${option}' is not valid for an index specification.`);
  }
  if (raw.expireAfterSeconds !== undefined) {
    const ttl = Number(raw.expireAfterSeconds);
    if (!isNumeric(raw.expireAfterSeconds) || !Number.isFinite(ttl) || ttl < 0)
      fail(
        67,
        `TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number`,
      );
  }
}

const createIndexes: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'createIndexes');
  const specs = cmd.indexes;
  if (!Array.isArray(specs) || specs.length === 0)
    fail(2, 'Must specify at least one index to create');
  for (const raw of specs) checkIndexSpec(raw);
  const createdCollectionAutomatically = !engine.collection(db, name);
  const coll = engine.ensureCollection(db, name);
  const before = coll.indexSpecs().length;
  for (const raw of specs) {
    if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0)
      fail(67, 'Index key pattern must be a non-empty object');
    const spec = {
      v: 2,
      ...cloneDoc(raw),
      name: typeof raw.name === 'string' ? raw.name : indexName(raw.key),
    } as IndexSpec;
    if (spec.v !== 2) spec.v = 2;
    const existing = coll.indexSpecs();
    const sameName = existing.find((s) => s.name === spec.name);
    const sameKey = existing.find((s) => keyOf(s.key) === keyOf(spec.key));
    const sameOptions = (a: IndexSpec): boolean =>
      Boolean(a.unique) === Boolean(spec.unique) &&
      Boolean(a.sparse) === Boolean(spec.sparse) &&
      keyOf(a.expireAfterSeconds) === keyOf(spec.expireAfterSeconds) &&
      keyOf(a.partialFilterExpression) === keyOf(spec.partialFilterExpression);
    if (sameName) {
      if (keyOf(sameName.key) !== keyOf(spec.key))
        fail(
          86,
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
        );
      if (spec.name !== '_id_' && !sameOptions(sameName))
        fail(
          85,
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
        );
      continue;
    }
    if (sameKey && sameOptions(sameKey))
      fail(85, `Index already exists with a different name: ${sameKey.name}`);
    if (
      spec.key._id !== undefined &&
      Object.keys(spec.key).length === 1 &&
      spec.unique === undefined &&
      !spec.partialFilterExpression
    ) {
      continue;
    }
    engine.createIndex(coll, spec);
  }
  const after = coll.indexSpecs().length;
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: after,
    createdCollectionAutomatically,
  };
  if (before === after) reply.note = 'all indexes already exist';
  reply.ok = 1;
  return reply;
};

const listIndexes: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'listIndexes');
  const coll = engine.collection(db, name);
  if (!coll) fail(26, `ns does not exist: ${db}.${name}`);
  const batchSize =
    isPlainObject(cmd.cursor) && cmd.cursor.batchSize !== undefined
      ? asNumber(cmd.cursor.batchSize)
      : undefined;
  return cursorReply(engine, `${db}.$cmd.listIndexes.${name}`, coll.indexSpecs().map(cloneDoc), {
    batchSize,
  });
};

const dropIndexes: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'dropIndexes');
  const coll = engine.collection(db, name);
  if (!coll) fail(26, `ns not found ${db}.${name}`);
  const nIndexesWas = coll.indexSpecs().length;
  const target = cmd.index;
  let names: string[];
  if (target === '*')
    names = coll
      .indexSpecs()
      .slice(1)
      .map((s) => s.name);
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target)) names = target.map(String);
  else if (isPlainObject(target)) {
    const spec = coll.indexSpecs().find((s) => keyOf(s.key) === keyOf(target));
    if (!spec) fail(27, `can't find index with key: ${JSON.stringify(target)}`);
    names = [spec.name];
  } else fail(14, 'invalid index specification');
  if (names.includes('_id_')) fail(72, 'cannot drop _id index');
  for (const n of names) if (!coll.hasIndex(n)) fail(27, `index not found with name [${n}]`);
  for (const n of names) engine.dropIndex(coll, n);
  return { nIndexesWas, ok: 1 };
};

const listDatabases: Handler = (engine, cmd) => {
  const databases = [...engine.dbs.keys()].map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  return cmd.nameOnly
    ? { databases: databases.map((d) => ({ name: d.name })), ok: 1 }
    : { databases, totalSize: 0, ok: 1 };
};

const collStats: Handler = (engine, cmd, db) => {
  const name = collName(cmd, 'collStats');
  const coll = engine.collection(db, name);
  if (!coll) fail(26, `ns not found ${db}.${name}`);
  return { ns: coll.ns, count: coll.docs.size, nindexes: coll.indexSpecs().length, ok: 1 };
};

/** Fields of a command that are not its arguments. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  'comment',
  '$clusterTime',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'writeConcern',
  'maxTimeMS',
]);

/** Server parameters: `ttlMonitorSleepSecs` is kept; the engine has none of the others. */
const setParameter: Handler = (engine, cmd) => {
  const names = Object.keys(cmd).filter((k) => k !== 'setParameter' && !GENERIC_FIELDS.has(k));
  if (names.length === 0) fail(2, 'no option found to set, use help:true to see options ');
  for (const name of names)
    if (name !== 'ttlMonitorSleepSecs') notImplemented(`The server parameter ${name}`);
  const seconds = cmd.ttlMonitorSleepSecs;
  if (!isNumeric(seconds) || !Number.isInteger(Number(seconds)) || Number(seconds) < 1)
    fail(
      2,
      `Bad value for parameter "ttlMonitorSleepSecs": ${String(seconds)} is not greater than or equal to 1`,
    );
  const was = engine.ttlMonitorSleepSecs;
  engine.ttlMonitorSleepSecs = Number(seconds);
  engine.onTtlMonitorChange();
  return { was, ok: 1 };
};

const refuseCommand =
  (feature: string): Handler =>
  () =>
    fail(115, `${feature} is not supported by this database engine`);

const refuseTransaction: Handler = () =>
  fail(20, 'Transaction numbers are only allowed on a replica set member or mongos');

const buildInfo: Handler = () => ({
  version: VERSION,
  gitVersion: 'embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: LIMITS.maxBsonObjectSize,
  storageEngines: ['embedded'],
  ok: 1,
});

const ok: Handler = () => ({ ok: 1 });

const handlers: Record<string, Handler> = {
  hello: (_e, _c, _d, ctx) => helloReply(ctx, false),
  isMaster: (_e, _c, _d, ctx) => helloReply(ctx, true),
  ismaster: (_e, _c, _d, ctx) => helloReply(ctx, true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter: (engine, cmd) => {
    const reply: Doc = {};
    if (cmd.featureCompatibilityVersion !== undefined || cmd.getParameter === '*')
      reply.featureCompatibilityVersion = { version: '7.0' };
    if (cmd.ttlMonitorSleepSecs !== undefined || cmd.getParameter === '*')
      reply.ttlMonitorSleepSecs = engine.ttlMonitorSleepSecs;
    reply.ok = 1;
    return reply;
  },
  setParameter,
  endSessions: ok,
  killAllSessions: ok,
  refreshSessions: ok,
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  connectionStatus: () => ({
    authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
    ok: 1,
  }),
  getCmdLineOpts: () => ({ argv: [], parsed: {}, ok: 1 }),
  serverStatus: () => ({
    host: '127.0.0.1',
    version: VERSION,
    process: 'embedded-mongo',
    uptime: process.uptime(),
    localTime: new Date(),
    ok: 1,
  }),
  hostInfo: () => ({ system: { currentTime: new Date(), hostname: '127.0.0.1' }, ok: 1 }),
  find,
  getMore,
  killCursors,
  insert,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
  aggregate: aggregateCmd,
  count,
  distinct,
  create,
  drop,
  dropDatabase,
  listCollections,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  listDatabases,
  collStats,
  commitTransaction: refuseTransaction,
  abortTransaction: refuseTransaction,
  explain: refuseCommand('explain'),
  collMod: refuseCommand('collMod'),
  mapReduce: refuseCommand('mapReduce'),
  mapreduce: refuseCommand('mapReduce'),
  geoSearch: refuseCommand('geoSearch'),
  renameCollection: refuseCommand('renameCollection'),
  validate: refuseCommand('validate'),
  convertToCapped: refuseCommand('convertToCapped'),
  cloneCollectionAsCapped: refuseCommand('cloneCollectionAsCapped'),
};

/** Runs one command to completion synchronously; all state changes happen before it returns. */
export function runCommand(engine: Engine, cmd: Doc, ctx: CommandContext): Doc {
  const name = Object.keys(cmd)[0] ?? '';
  try {
    const db = typeof cmd.$db === 'string' ? cmd.$db : 'admin';
    const handler = Object.prototype.hasOwnProperty.call(handlers, name)
      ? handlers[name]
      : undefined;
    if (!handler) fail(59, `no such command: '${name}'`);
    if (
      cmd.txnNumber !== undefined ||
      cmd.startTransaction !== undefined ||
      cmd.autocommit !== undefined
    )
      refuseTransaction(engine, cmd, db, ctx);
    return handler(engine, cmd, db, ctx);
  } catch (err) {
    return toMongoError(err).toReply();
  }
}
