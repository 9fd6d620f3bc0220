import { Aggregator } from 'mingo/aggregator';
import { fail } from './errors';
import {
  cloneDoc,
  escapeKey,
  formatValue,
  fromMingo,
  inMingoForm,
  isPlainObject,
  setField,
  storedToMingo,
  toMingo,
  type Doc,
} from './values';
import { compileFilter } from './filter';
import { compileProjectionSpec } from './projection';
import { readsOnly } from './stages';
import { FIELD_PATH, context, mingoOptions } from './mingo-context';

/**
 * Aggregation pipelines: the stages MongoDB 7 knows (those mingo would run otherwise than MongoDB
 * refused by name), field names escaped as mingo wants them, and the pipeline run through mingo
 * with the engine's context (mingo-context.ts).
 */

/** The pipeline stages this engine runs. */
const ENGINE_STAGES = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$documents',
  '$facet',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$project',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$graphLookup',
  '$setWindowFields',
  '$redact',
  '$densify',
  '$fill',
]);

/** Pipeline stages MongoDB 7 knows: those this engine runs and those it refuses by name. */
const KNOWN_STAGES = new Set([
  ...ENGINE_STAGES,
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$currentOp',
  '$geoNear',
  '$indexStats',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$merge',
  '$out',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$shardedDataDistribution',
  '$vectorSearch',
]);

/**
 * Checks every stage of a pipeline (and of the pipelines nested in $lookup, $facet and
 * $unionWith) before anything runs: unknown stages get MongoDB's error, stages MongoDB has and
 * this engine does not run are refused by name, and every $match filter is compiled.
 */
export function validatePipeline(pipeline: unknown[]): void {
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) fail(14, 'Each element of the pipeline array must be an object');
    const keys = Object.keys(stage);
    if (keys.length !== 1)
      fail(40323, 'A pipeline stage specification object must contain exactly one field.');
    const name = keys[0]!;
    const arg = stage[name];
    if (!KNOWN_STAGES.has(name)) fail(40324, `Unrecognized pipeline stage name: '${name}'`);
    if (name === '$changeStream')
      fail(40573, 'The $changeStream stage is only supported on replica sets');
    if (name === '$out' || name === '$merge')
      fail(115, `The ${name} aggregation stage is not supported by this database engine`);
    if (!ENGINE_STAGES.has(name))
      fail(115, `The ${name} aggregation stage is not supported by this database engine`);
    if (name === '$match') {
      if (!isPlainObject(arg)) fail(15959, 'the match filter must be an expression in an object');
      compileFilter(arg);
    }
    if (name === '$lookup' && isPlainObject(arg) && Array.isArray(arg.pipeline))
      validatePipeline(arg.pipeline);
    if (name === '$unionWith' && isPlainObject(arg) && Array.isArray(arg.pipeline))
      validatePipeline(arg.pipeline);
    if (name === '$facet' && isPlainObject(arg))
      for (const sub of Object.values(arg)) if (Array.isArray(sub)) validatePipeline(sub);
  }
}

// Field names in expressions and pipelines are escaped as in documents (see toMingo): keys by
// toMingo, and here the strings that name fields: `$a.b` and `$$var.a` in expressions, and the
// arguments below, which name fields without a `$`.
const NAMING_ARGUMENTS = new Map<string, Set<string>>(
  Object.entries({
    $lookup: ['localField', 'foreignField', 'as'],
    $graphLookup: ['connectFromField', 'connectToField', 'as', 'depthField'],
    $densify: ['field', 'partitionByFields'],
    $fill: ['partitionByFields'],
    $filter: ['as'],
    $map: ['as'],
    $setField: ['field'],
    $unsetField: ['field'],
  }).map(([op, names]) => [op, new Set(names)]),
);
/** Arguments that are constants or filters, not expressions. */
const CONSTANT_ARGUMENTS = new Set(['boundaries', 'default', 'range']);
const FILTER_ARGUMENTS = new Set(['restrictSearchWithMatch']);

function escapeNames(v: unknown): unknown {
  if (typeof v === 'string') return escapeKey(v);
  if (Array.isArray(v)) return v.map(escapeNames);
  if (isPlainObject(v) && typeof v.$literal === 'string')
    return { $literal: escapeKey(v.$literal) };
  return v;
}

/** A field path (`$a.b`, `$$var.a`) where mingo wants a string, its names escaped. */
function escapePathString(v: string): string {
  if (!v.startsWith('$')) return v;
  const at = v.startsWith('$$') ? 2 : 1;
  return v.slice(0, at) + escapeKey(v.slice(at));
}

/**
 * A field path in an expression: one that goes through documents is read by the engine (see
 * FIELD_PATH), the field of the document or a variable alone by mingo.
 */
function escapeFieldPath(v: string): unknown {
  if (!v.startsWith('$')) return v;
  const dot = v.indexOf('.');
  if (dot < 0 || dot === v.length - 1) return escapePathString(v);
  const base = v.startsWith('$$') ? v.slice(0, dot) : '$$ROOT';
  const rest = v.startsWith('$$') ? v.slice(dot + 1) : v.slice(1);
  return { [FIELD_PATH]: [base, escapeKey(rest)] };
}

function mapEntries(v: Doc, f: (key: string, arg: unknown) => unknown): Doc {
  const out: Doc = {};
  for (const [k, arg] of Object.entries(v)) setField(out, k, f(k, arg));
  return out;
}

export function escapeExpression(v: unknown): unknown {
  if (typeof v === 'string') return escapeFieldPath(v);
  if (Array.isArray(v)) return v.map(escapeExpression);
  if (!isPlainObject(v)) return v;
  checkExpressionObject(v);
  return mapEntries(v, (k, arg) => {
    if (k === '$literal') return arg;
    const naming = NAMING_ARGUMENTS.get(k);
    if (naming && isPlainObject(arg)) return escapeArguments(arg, naming);
    return escapeExpression(arg);
  });
}

/**
 * An object in an expression is one operator (`{ $add: [...] }`) or a document of fields none of
 * which starts with `$`; mingo would take anything else for a document.
 */
function checkExpressionObject(v: Doc): void {
  const keys = Object.keys(v);
  if (keys[0]?.startsWith('$')) {
    if (keys.length > 1)
      fail(
        15983,
        `An object representing an expression must have exactly one field: ${formatValue(v)}`,
      );
    if (!/^\$[A-Za-z0-9_]+$/.test(keys[0]) || keys[0] === FIELD_PATH || !isKnownOperator(keys[0]))
      fail(168, `Unrecognized expression '${keys[0]}'`);
  } else if (keys.some((k) => k.startsWith('$')))
    fail(
      16410,
      "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
    );
}

const isKnownOperator = (name: string): boolean =>
  (['expression', 'accumulator', 'window'] as const).some(
    (type) => context.getOperator(type as never, name) !== null,
  );

function escapeArguments(args: Doc, naming: Set<string> = new Set()): Doc {
  return mapEntries(args, (k, arg) => {
    if (naming.has(k)) return escapeNames(arg);
    if (k === 'pipeline' && Array.isArray(arg)) return escapePipeline(arg);
    if (CONSTANT_ARGUMENTS.has(k)) return arg;
    if (FILTER_ARGUMENTS.has(k)) return escapeFilter(arg);
    return escapeExpression(arg);
  });
}

/** Filters name fields only in their keys, except inside `$expr`. */
function escapeFilter(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(escapeFilter);
  if (!isPlainObject(v)) return v;
  return mapEntries(v, (k, arg) => (k === '$expr' ? escapeExpression(arg) : escapeFilter(arg)));
}

/**
 * $setWindowFields: each output field is one operator beside its `window` (bounds, not an
 * expression); the sort is a sort.
 */
function escapeWindowFields(spec: Doc): Doc {
  return mapEntries(spec, (k, arg) => {
    if (k === 'sortBy') return arg;
    if (k !== 'output' || !isPlainObject(arg)) return escapeExpression(arg);
    return mapEntries(arg, (_, field) => {
      if (!isPlainObject(field)) return escapeExpression(field);
      const { window, ...operator } = field;
      const out = escapeExpression(operator) as Doc;
      if (window !== undefined) out.window = window;
      return out;
    });
  });
}

function escapePipeline(stages: unknown[]): unknown[] {
  return stages.map((stage) =>
    isPlainObject(stage)
      ? mapEntries(stage, (name, arg) => {
          switch (name) {
            case '$match':
              return escapeFilter(arg);
            case '$sort':
            case '$limit':
            case '$skip':
            case '$sample':
              return arg;
            case '$count':
            case '$unset':
              return escapeNames(arg);
            case '$unwind':
              return typeof arg === 'string'
                ? escapePathString(arg)
                : isPlainObject(arg)
                  ? mapEntries(arg, (k, x) =>
                      k === 'path' && typeof x === 'string'
                        ? escapePathString(x)
                        : k === 'includeArrayIndex'
                          ? escapeNames(x)
                          : x,
                    )
                  : arg;
            case '$setWindowFields':
              return isPlainObject(arg) ? escapeWindowFields(arg) : arg;
            case '$facet':
              return isPlainObject(arg)
                ? mapEntries(arg, (_, sub) => (Array.isArray(sub) ? escapePipeline(sub) : sub))
                : arg;
          }
          if (!isPlainObject(arg)) return escapeExpression(arg);
          if (name === '$unionWith' || NAMING_ARGUMENTS.has(name) || name === '$bucket')
            return escapeArguments(arg, NAMING_ARGUMENTS.get(name));
          return escapeExpression(arg);
        })
      : stage,
  );
}

/**
 * Whether a first stage builds its documents anew without changing the ones it reads: `$group`,
 * and `$project` unless it removes a field inside an embedded document (which mingo does in
 * place, on the embedded document it shares with its input).
 */
function leavesInputAlone(stage: Doc | undefined): boolean {
  if (!stage) return false;
  if (isPlainObject(stage.$group)) return true;
  const removesNested = (spec: Doc): boolean =>
    Object.entries(spec).some(([k, v]) =>
      isPlainObject(v)
        ? !Object.keys(v)[0]?.startsWith('$') && removesNested(v)
        : k.includes('.') && (v === 0 || v === false),
    );
  return isPlainObject(stage.$project) && !removesNested(stage.$project);
}

/** Whether a `$project` only keeps fields (`1` or `true`, `_id` perhaps left out): no expression. */
function onlyIncludes(spec: unknown): boolean {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0) return false;
  const keeps = (v: unknown): boolean =>
    v === 1 || v === true || (isPlainObject(v) && Object.keys(v).length > 0 && within(v));
  const within = (v: Doc): boolean =>
    Object.entries(v).every(([k, x]) => !k.startsWith('$') && keeps(x));
  const { _id: id, ...rest } = spec;
  return (
    Object.keys(rest).length > 0 &&
    within(rest) &&
    (id === undefined || id === 0 || id === false || id === 1 || id === true)
  );
}

/**
 * What a first `$project` that only keeps fields kept of each stored document it read, with the
 * projection's text: stored documents are never changed in place (a write stores a new version),
 * and what is kept of them is only read and copied (see aggregate), so it stays right for as long
 * as the document is kept, and the next aggregation with the same projection reads it again.
 */
const keptOfStored = new WeakMap<Doc, { projection: string; kept: Doc }>();

/**
 * The fields a `$project` that only keeps fields keeps, read from the stored documents as they
 * are, in mingo's form: a stored document already in that form keeps parts that are too, and
 * only what is kept of another is converted.
 */
function includedFields(docs: Doc[], spec: Doc): Doc[] {
  const project = compileProjectionSpec(spec, 'project', {
    prepare: () => fail(2, 'a projection that only keeps fields has no expression'),
    evaluate: () => () => undefined,
  });
  const projection = JSON.stringify(spec);
  return docs.map((doc) => {
    const known = keptOfStored.get(doc);
    if (known?.projection === projection) return known.kept;
    const found = project(doc);
    const kept = inMingoForm(doc) ? found : storedToMingo(found);
    keptOfStored.set(doc, { projection, kept });
    return kept;
  });
}

/**
 * Runs a pipeline over stored documents, which it leaves as they are: mingo changes some
 * documents in place, so they go in as copies. A first `$project` or `$group` reads the stored
 * documents themselves, and only what it makes (fewer, smaller documents) is copied.
 */
export function aggregate(docs: Doc[], pipeline: Doc[], resolver: (name: string) => Doc[]): Doc[] {
  const options = mingoOptions({ collectionResolver: (name) => resolver(name).map(toMingo) });
  const stages = escapePipeline(toMingo(pipeline)) as Doc[];
  if (leavesInputAlone(pipeline[0])) {
    const made = onlyIncludes(pipeline[0]!.$project)
      ? includedFields(docs, pipeline[0]!.$project as Doc)
      : (new Aggregator(stages.slice(0, 1), options).run(docs.map(toMingo)) as Doc[]);
    // The stages after it that only read go on reading them as they are; what they give is copied.
    const rest = stages.slice(1);
    let reading = 0;
    while (reading < rest.length && readsOnly(rest[reading])) reading++;
    const read = reading
      ? (new Aggregator(rest.slice(0, reading), options).run(made) as Doc[])
      : made;
    const copies = read.map(cloneDoc);
    const out =
      rest.length > reading
        ? (new Aggregator(rest.slice(reading), options).run(copies) as Doc[])
        : copies;
    return out.map(fromMingo);
  }
  const agg = new Aggregator(stages, options);
  // mingo computes with JS numbers; documents that pass through unchanged go out as stored, with
  // their Double values still Doubles.
  const originals = new Map<Doc, Doc>();
  const input = docs.map((stored) => {
    const doc = cloneDoc(stored);
    const view = toMingo(doc);
    originals.set(view, doc);
    return view;
  });
  const out = agg.run(input) as Doc[];
  return out.map((d) => originals.get(d) ?? fromMingo(d));
}
