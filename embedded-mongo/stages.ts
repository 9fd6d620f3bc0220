import { Long } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { ComputeOptions, computeValue, ProcessingMode, type Options } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import * as pipelineOperators from 'mingo/operators/pipeline';
import { runningSums } from './arithmetic';
import { compileExpression, perDocument, type Compiled } from './compiled';
import { fail } from './errors';
import { compareExpressionValues, notImplemented } from './expression-support';
import { equalityKeys } from './paths';
import {
  bsonTypeCode,
  cloneDoc,
  fieldOf,
  isPlainObject,
  keyOf,
  pathValues,
  setField,
  setPath,
  sortDocs,
  typeName,
  type Doc,
} from './values';

// Pipeline stages the engine runs itself, as MongoDB 7 does: $group with MongoDB's equality of
// keys (1, 1.0 and Decimal128 1.00 are one group, a document's field order counts), $bucket with
// its [lower, upper) bounds and `_id` first, $count with no document for no input, and $lookup in
// every form — localField/foreignField, a pipeline with `let` variables, both (the join first,
// then the pipeline), nested. Documents are in mingo's form (see toMingo).

type Stage = (collection: Iterator, spec: unknown, options: Options) => Iterator;

const FAILED_TO_PARSE = 9;

/** An accumulator fed one value at a time, in the group's order of documents. */
type Running = { add(value: unknown): void; result(): unknown };

/**
 * The accumulators $group runs itself, each over its expression's values for the group's
 * documents, compiled once for the stage (compiled.ts): the same answers as the engine's
 * accumulators over the list of values (mingo-context.ts), without the list. Others are mingo's.
 */
const RUNNING = new Map<string, () => Running>(
  Object.entries({
    ...runningSums,
    // A missing value is not pushed.
    $push: () => {
      const out: unknown[] = [];
      return { add: (v) => v !== undefined && out.push(v), result: () => out };
    },
    // Each value once, as MongoDB compares them (as distinctValues); missing values are skipped.
    $addToSet: () => {
      const seen = new Set<string>();
      const out: unknown[] = [];
      return {
        add: (v) => {
          if (v === undefined) return;
          const k = keyOf(v);
          if (seen.has(k)) return;
          seen.add(k);
          out.push(v);
        },
        result: () => out,
      };
    },
  } satisfies Record<string, () => Running>),
);

/** How a group computes one of its fields: a running accumulator, or mingo's over its documents. */
type FieldPlan =
  { field: string; running: () => Running; value: Compiled } | { field: string; spec: unknown };

function planFields(fields: Doc): FieldPlan[] {
  return Object.entries(fields).map(([field, spec]) => {
    const [name, expr] = Object.entries(spec as Doc)[0]!;
    const running = RUNNING.get(name);
    // Without an expression mingo's accumulators read the documents themselves.
    return running && expr !== null && expr !== undefined
      ? { field, running, value: compileExpression(expr) }
      : { field, spec };
  });
}

/** The accumulated fields of a group, each field's operator over its documents by mingo. */
function accumulateByMingo(docs: Doc[], fields: Doc, groupId: unknown, options: Options): Doc {
  const copts = ComputeOptions.init(options).update(null, { groupId });
  const out: Doc = {};
  for (const [field, spec] of Object.entries(fields))
    out[field] = computeValue(docs, spec, null, copts);
  return out;
}

/** The accumulated fields of a group: each field's operator over the group's documents. */
function accumulate(docs: Doc[], fields: FieldPlan[], groupId: unknown, options: Options): Doc {
  const copts = ComputeOptions.init(options).update(null, { groupId });
  // What a part of an expression left to mingo reads: this document as its root, and the group.
  let current: Doc | null = null;
  let forDoc: ComputeOptions | null = null;
  const optionsOf = () => (forDoc ??= ComputeOptions.init(copts)).update(current);
  const out: Doc = {};
  for (const plan of fields) {
    if (!('running' in plan)) {
      out[plan.field] = computeValue(docs, plan.spec, null, copts);
      continue;
    }
    const acc = plan.running();
    for (const doc of docs) {
      current = doc;
      acc.add(plan.value(doc, optionsOf));
    }
    out[plan.field] = acc.result();
  }
  return out;
}

/** How documents are grouped: each one's key string, and the value of the last one keyed. */
type Keyer = { key(doc: Doc): string; id(): unknown };

/** Grouping by a value worked out for each document, its key string as keyOf makes it. */
function byValue(value: (doc: Doc) => unknown): Keyer {
  let last: unknown;
  return { key: (doc) => keyOf((last = value(doc))), id: () => last };
}

/** The documents by their key, in the order the keys first appear, each group with its value. */
function partition(docs: Doc[], keyer: Keyer): Array<{ id: unknown; docs: Doc[] }> {
  const groups = new Map<string, { id: unknown; docs: Doc[] }>();
  for (const doc of docs) {
    const k = keyer.key(doc);
    const group = groups.get(k);
    if (group) group.docs.push(doc);
    else groups.set(k, { id: keyer.id(), docs: [doc] });
  }
  return [...groups.values()];
}

/**
 * $group's key when it is a document of expressions (`_id: { day: …, depot: … }`): each field
 * compiled, and the key string made from the fields' values as keyOf makes it of the document,
 * which is built only for a group's first document.
 */
function fieldsKey(idExpr: Doc, options: Options): Keyer {
  const names = Object.keys(idExpr);
  const prefixes = names.map((k) => JSON.stringify(k) + ':');
  const parts = names.map((k) => compileExpression(idExpr[k]));
  const values: unknown[] = new Array(names.length);
  let current: Doc | null = null;
  const optionsOf = () => ComputeOptions.init(options).update(current);
  return {
    key(doc: Doc): string {
      current = doc;
      let k = '{';
      for (let i = 0; i < parts.length; i++) {
        values[i] = parts[i]!(doc, optionsOf);
        k += prefixes[i]! + keyOf(values[i]) + ',';
      }
      return k + '}';
    },
    /** The key document of the last document keyed. */
    id(): Doc {
      const id: Doc = {};
      for (let i = 0; i < names.length; i++) setField(id, names[i]!, values[i]);
      return id;
    },
  };
}

/** A document of expressions, no operator: the fields of a group's key. */
const isFieldsDocument = (v: unknown): v is Doc =>
  isPlainObject(v) && Object.keys(v).length > 0 && !Object.keys(v).some((k) => k.startsWith('$'));

function checkAccumulators(stage: string, fields: Doc): void {
  for (const [field, spec] of Object.entries(fields)) {
    if (field.includes('.')) fail(40235, `The field name '${field}' cannot contain '.'`);
    if (field.startsWith('$'))
      fail(
        16410,
        `FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
      );
    if (!isPlainObject(spec)) fail(40234, `The field '${field}' must be an accumulator object`);
    if (Object.keys(spec).length !== 1)
      fail(40238, `The field '${field}' must specify one accumulator`);
    if (!Object.keys(spec)[0]!.startsWith('$'))
      fail(stage === '$group' ? 15952 : 40234, `unknown group operator '${Object.keys(spec)[0]}'`);
  }
}

/** An iterator over what `compute` gives, computed once the first value is read. */
function deferred(compute: () => unknown[]): Iterator {
  let items: unknown[] | null = null;
  let i = 0;
  return Lazy(() => {
    items ??= compute();
    return i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true };
  });
}

const $group = (collection: Iterator, spec: unknown, options: Options): Iterator => {
  if (!isPlainObject(spec)) fail(15947, "a group's fields must be specified in an object");
  if (!('_id' in spec)) fail(15955, 'a group specification must include an _id');
  const { _id: idExpr, ...fields } = spec;
  checkAccumulators('$group', fields);
  // With options of their own (a root already set), everything is evaluated as mingo evaluates it.
  if (options instanceof ComputeOptions)
    return deferred(() =>
      partition(
        collection.value() as Doc[],
        byValue((doc) => computeValue(doc, idExpr, null, options) ?? null),
      ).map((g) => ({ _id: g.id, ...accumulateByMingo(g.docs, fields, g.id, options) })),
    );
  let keyer: Keyer;
  if (isFieldsDocument(idExpr)) keyer = fieldsKey(idExpr, options);
  else {
    const groupKey = perDocument(idExpr, options);
    keyer = byValue((doc) => groupKey(doc) ?? null);
  }
  return deferred(() => {
    const groups = partition(collection.value() as Doc[], keyer);
    const plans = planFields(fields);
    return groups.map((g) => ({ _id: g.id, ...accumulate(g.docs, plans, g.id, options) }));
  });
};

const $count = (collection: Iterator, field: unknown): Iterator => {
  if (typeof field !== 'string' || field === '')
    fail(40156, 'the count field must be a non-empty string');
  if (field.startsWith('$')) fail(40158, 'the count field cannot be a $-prefixed path');
  if (field.includes('.')) fail(40160, "the count field cannot contain '.'");
  const n = collection.value().length;
  return Lazy(n === 0 ? [] : [{ [field]: n }]);
};

/** MongoDB's canonical type order, by which $bucket's boundaries must share one type. */
function canonicalType(v: unknown): number {
  const code = bsonTypeCode(v);
  switch (code) {
    case 1:
    case 16:
    case 18:
    case 19:
      return 1;
    case 14:
      return 2;
    default:
      return code ?? 6;
  }
}

/**
 * $bucket: each document in the bucket [lower, upper) its groupBy value falls in, or in the
 * default bucket; buckets with documents come out `_id` first, in order of `_id`.
 */
const $bucket = (collection: Iterator, spec: unknown, options: Options): Iterator => {
  if (!isPlainObject(spec))
    fail(40201, `Argument to $bucket stage must be an object, but found type: ${typeName(spec)}.`);
  for (const k of Object.keys(spec))
    if (!['groupBy', 'boundaries', 'default', 'output'].includes(k))
      fail(40197, `Unrecognized option to $bucket: ${k}.`);
  if (!('groupBy' in spec) || !('boundaries' in spec))
    fail(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.");
  const { groupBy, boundaries, output } = spec;
  const hasDefault = 'default' in spec;
  if (!(typeof groupBy === 'string' && groupBy.startsWith('$')) && !isPlainObject(groupBy))
    fail(
      40202,
      `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${typeName(groupBy)}.`,
    );
  if (!Array.isArray(boundaries))
    fail(
      40200,
      `The $bucket 'boundaries' field must be an array, but found type: ${typeName(boundaries)}.`,
    );
  if (boundaries.length < 2)
    fail(
      40192,
      `The $bucket 'boundaries' field must have at least 2 values, but found ${boundaries.length} value(s).`,
    );
  for (let i = 1; i < boundaries.length; i++) {
    const [a, b] = [boundaries[i - 1], boundaries[i]];
    if (canonicalType(a) !== canonicalType(b))
      fail(
        40193,
        `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${typeName(a)} and ${typeName(b)}.`,
      );
    if (compareExpressionValues(a, b) >= 0)
      fail(
        40194,
        `The 'boundaries' option to $bucket must be sorted in ascending order, but elements ${i - 1} and ${i} are not in ascending order (${String(a)} is not less than ${String(b)}).`,
      );
  }
  const lowest = boundaries[0];
  const highest = boundaries[boundaries.length - 1];
  if (
    hasDefault &&
    canonicalType(spec.default) === canonicalType(lowest) &&
    compareExpressionValues(spec.default, lowest) >= 0 &&
    compareExpressionValues(spec.default, highest) < 0
  )
    fail(
      40199,
      "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
    );
  const fields = output === undefined ? { count: { $sum: 1 } } : output;
  if (!isPlainObject(fields))
    fail(
      40196,
      `The $bucket 'output' field must be an object, but found type: ${typeName(fields)}.`,
    );
  checkAccumulators('$bucket', fields);
  /** The lower boundary of a value's bucket, or the default. */
  const bucketOf = (v: unknown): unknown => {
    if (compareExpressionValues(v, lowest) >= 0 && compareExpressionValues(v, highest) < 0) {
      let lo = 0;
      let hi = boundaries.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (compareExpressionValues(v, boundaries[mid]) >= 0) lo = mid;
        else hi = mid;
      }
      return boundaries[lo];
    }
    if (!hasDefault)
      fail(
        40066,
        '$switch could not find a matching branch for an input, and no default was specified.',
      );
    return spec.default;
  };
  return deferred(() => {
    const groups = partition(
      collection.value() as Doc[],
      byValue((doc) => bucketOf(computeValue(doc, groupBy, null, options))),
    );
    const buckets = groups.map((g) => ({
      _id: g.id,
      ...accumulateByMingo(g.docs, fields, g.id, options),
    }));
    return sortDocs(buckets, { _id: 1 });
  });
};

const $sortByCount = (collection: Iterator, expr: unknown, options: Options): Iterator => {
  if (!(typeof expr === 'string' && expr.startsWith('$')) && !isPlainObject(expr))
    fail(40148, `the sortByCount field must be defined as a $-prefixed path or an expression`);
  const grouped = $group(collection, { _id: expr, count: { $sum: 1 } }, options);
  return deferred(() => sortDocs(grouped.value() as Doc[], { count: -1 }));
};

// --- $lookup

const LOOKUP_ARGUMENTS = ['from', 'as', 'localField', 'foreignField', 'let', 'pipeline'];

/** The values a document's localField joins on: each element of an array, null for none. */
function localValues(doc: Doc, path: string): unknown[] {
  const values = pathValues(doc, path).flatMap((v) => (Array.isArray(v) ? v : [v]));
  return values.length === 0 ? [null] : values;
}

const $lookup = (collection: Iterator, spec: unknown, options: Options): Iterator => {
  if (!isPlainObject(spec))
    fail(
      FAILED_TO_PARSE,
      'the $lookup specification must be an Object, but found ' + typeName(spec),
    );
  for (const k of Object.keys(spec))
    if (!LOOKUP_ARGUMENTS.includes(k)) fail(FAILED_TO_PARSE, `unknown argument to $lookup: ${k}`);
  for (const k of ['from', 'as', 'localField', 'foreignField'])
    if (k in spec && typeof spec[k] !== 'string')
      fail(
        FAILED_TO_PARSE,
        `$lookup argument '${k}: ${String(spec[k])}' must be a string, is type ${typeName(spec[k])}`,
      );
  const { from, as, localField, foreignField } = spec as Record<string, string | undefined>;
  const pipeline = spec.pipeline;
  if (pipeline !== undefined && !Array.isArray(pipeline))
    fail(FAILED_TO_PARSE, "'pipeline' option must be specified as an array");
  if (as === undefined) fail(FAILED_TO_PARSE, "must specify 'as' field for a $lookup");
  if ((localField === undefined) !== (foreignField === undefined))
    fail(
      FAILED_TO_PARSE,
      "$lookup requires both or neither of 'localField' and 'foreignField' to be specified",
    );
  if (localField === undefined && pipeline === undefined)
    fail(
      FAILED_TO_PARSE,
      "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
    );
  if (spec.let !== undefined && pipeline === undefined)
    fail(FAILED_TO_PARSE, "$lookup with a 'let' argument must also specify 'pipeline'");
  if (spec.let !== undefined && !isPlainObject(spec.let))
    fail(FAILED_TO_PARSE, "$lookup argument 'let' must be an object");
  const documentsFirst =
    Array.isArray(pipeline) && isPlainObject(pipeline[0]) && '$documents' in pipeline[0];
  if (from === undefined && !documentsFirst)
    fail(FAILED_TO_PARSE, "must specify 'from' field for a $lookup");
  const foreign: Doc[] =
    from === undefined || documentsFirst
      ? []
      : ((options.collectionResolver?.(from) as Doc[] | undefined) ?? []);
  // The foreign documents under each key an equality on foreignField finds them by.
  let byKey: Map<string, number[]> | null = null;
  if (foreignField !== undefined) {
    byKey = new Map();
    foreign.forEach((doc, i) => {
      for (const k of new Set(equalityKeys(doc, foreignField))) {
        const list = byKey!.get(k);
        if (list) list.push(i);
        else byKey!.set(k, [i]);
      }
    });
  }
  const sub = pipeline === undefined ? null : new Aggregator(pipeline as Doc[], options);
  return collection.map((value) => {
    const doc = value as Doc;
    let joined = foreign;
    if (byKey && localField !== undefined) {
      const found = new Set<number>();
      for (const v of localValues(doc, localField))
        for (const i of byKey.get(keyOf(v)) ?? []) found.add(i);
      joined = [...found].sort((a, b) => a - b).map((i) => foreign[i]!);
    }
    let result: unknown[] = joined;
    if (sub) {
      const vars =
        spec.let === undefined
          ? {}
          : (computeValue(doc, spec.let, null, ComputeOptions.init(options).update(doc)) as Doc);
      result = sub.run(joined, {
        ...options,
        variables: { ...options.variables, ...vars },
      } as Options);
    }
    const out: Doc = { ...doc };
    setPath(out, as, result);
    return out;
  });
};

// --- $graphLookup

const GRAPH_ARGUMENTS = [
  'from',
  'startWith',
  'connectFromField',
  'connectToField',
  'as',
  'maxDepth',
  'depthField',
  'restrictSearchWithMatch',
];

/** How a filter compiles into a test of documents (the engine's matcher). */
export type FilterCompiler = (filter: unknown) => (doc: Doc) => boolean;

/**
 * $graphLookup: a breadth-first search from the startWith values through connectToField, then
 * connectFromField of each document found, each document once, to maxDepth; restrictSearchWithMatch
 * limits the documents the search may reach.
 */
function graphLookup(compile: FilterCompiler) {
  return (collection: Iterator, spec: unknown, options: Options): Iterator => {
    if (!isPlainObject(spec))
      fail(
        40327,
        `the $graphLookup stage specification must be an object, but found ${typeName(spec)}`,
      );
    for (const k of Object.keys(spec))
      if (!GRAPH_ARGUMENTS.includes(k)) fail(40104, `Unknown argument to $graphLookup: ${k}`);
    for (const k of ['from', 'connectFromField', 'connectToField', 'as'])
      if (typeof spec[k] !== 'string')
        fail(
          40105,
          "$graphLookup requires 'from', 'connectFromField', 'connectToField', 'as' and 'startWith' to be specified",
        );
    if (!('startWith' in spec))
      fail(
        40105,
        "$graphLookup requires 'from', 'connectFromField', 'connectToField', 'as' and 'startWith' to be specified",
      );
    const { from, connectFromField, connectToField, as, depthField } = spec as Record<
      string,
      string
    >;
    let maxDepth = Infinity;
    if (spec.maxDepth !== undefined) {
      const n = Number(spec.maxDepth);
      if (!Number.isInteger(n))
        fail(
          40102,
          `maxDepth must be representable as a long integer, found ${String(spec.maxDepth)}`,
        );
      if (n < 0) fail(40101, `maxDepth requires a nonnegative argument, found: ${n}`);
      maxDepth = n;
    }
    const allowed =
      spec.restrictSearchWithMatch === undefined ? null : compile(spec.restrictSearchWithMatch);
    const foreign = ((options.collectionResolver?.(from) as Doc[] | undefined) ?? []).filter(
      (doc) => !allowed || allowed(doc),
    );
    const byKey = new Map<string, number[]>();
    foreign.forEach((doc, i) => {
      for (const k of new Set(equalityKeys(doc, connectToField))) {
        const list = byKey.get(k);
        if (list) list.push(i);
        else byKey.set(k, [i]);
      }
    });
    return collection.map((value) => {
      const doc = value as Doc;
      const start = computeValue(
        doc,
        spec.startWith,
        null,
        ComputeOptions.init(options).update(doc),
      );
      let frontier = Array.isArray(start) ? start : [start === undefined ? null : start];
      const depth = new Map<number, number>();
      for (let level = 0; level <= maxDepth && frontier.length > 0; level++) {
        const next: unknown[] = [];
        for (const v of frontier)
          for (const i of byKey.get(keyOf(v)) ?? [])
            if (!depth.has(i)) {
              depth.set(i, level);
              for (const w of pathValues(foreign[i]!, connectFromField))
                next.push(...(Array.isArray(w) ? w : [w]));
            }
        frontier = next;
      }
      const found = [...depth].map(([i, d]) => {
        const out: Doc = { ...foreign[i]! };
        if (depthField !== undefined) setPath(out, depthField, Long.fromNumber(d));
        return out;
      });
      const out: Doc = { ...doc };
      setPath(out, as, found);
      return out;
    });
  };
}

// --- $setWindowFields and $bucketAuto: mingo's, where its ordering and grouping agree with MongoDB's

/** MongoDB 7's window functions. */
const WINDOW_FUNCTIONS = new Set([
  '$addToSet',
  '$avg',
  '$bottom',
  '$bottomN',
  '$count',
  '$covariancePop',
  '$covarianceSamp',
  '$denseRank',
  '$derivative',
  '$documentNumber',
  '$expMovingAvg',
  '$first',
  '$firstN',
  '$integral',
  '$last',
  '$lastN',
  '$linearFill',
  '$locf',
  '$max',
  '$maxN',
  '$median',
  '$min',
  '$minN',
  '$percentile',
  '$push',
  '$rank',
  '$shift',
  '$stdDevPop',
  '$stdDevSamp',
  '$sum',
  '$top',
  '$topN',
]);

/**
 * The kind of a value mingo orders and groups as MongoDB does: a number (not NaN), a string
 * without characters beyond U+FFFF, a boolean or a date, and null for null or missing; undefined
 * for anything else (Decimal128, Longs beyond 2^53, documents, arrays, …).
 */
function plainKind(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : 'number';
  if (typeof v === 'string') return /[\ud800-\udfff]/.test(v) ? undefined : 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof Date) return 'date';
  return undefined;
}

/** True when the values are all of one plain kind (nulls allowed only where `nulls` says). */
function oneKind(values: unknown[], nulls: boolean): boolean {
  let kind: string | null = null;
  for (const v of values) {
    const k = plainKind(v);
    if (k === undefined || (k === null && !nulls)) return false;
    if (k === null) continue;
    if (kind !== null && k !== kind) return false;
    kind = k;
  }
  return true;
}

/** Refuses, by name, ordering the documents by values mingo would order otherwise than MongoDB. */
function checkOrdering(stage: string, docs: Doc[], paths: string[]): void {
  for (const path of paths)
    if (
      !oneKind(
        docs.flatMap((d) => pathValues(d, path)),
        true,
      )
    )
      notImplemented(
        `${stage} sorting by Decimal128, Longs beyond 2^53, documents, arrays or values of several types`,
      );
}

/** Refuses, by name, partitioning the documents by values mingo would group otherwise. */
function checkPartition(stage: string, docs: Doc[], expr: unknown, options: Options): void {
  if (expr === undefined) return;
  for (const d of docs) {
    const key = computeValue(d, expr, null, ComputeOptions.init(options).update(d));
    const parts = Array.isArray(key) ? key : [key];
    if (!parts.every((k) => plainKind(k) !== undefined))
      notImplemented(`${stage} partitioned by Decimal128, Longs beyond 2^53, documents or arrays`);
  }
}

const partitionFields = (fields: unknown): unknown =>
  Array.isArray(fields) ? fields.map((f) => `$${String(f)}`) : undefined;

/** $densify and $fill: mingo's, on values it orders as MongoDB does. */
function ordered(stage: '$densify' | '$fill', mingoStage: Stage): Stage {
  return (collection, spec, options) => {
    const docs = collection.value() as Doc[];
    if (isPlainObject(spec)) {
      if (stage === '$densify' && typeof spec.field === 'string')
        checkOrdering(stage, docs, [spec.field]);
      if (stage === '$fill' && isPlainObject(spec.sortBy))
        checkOrdering(stage, docs, Object.keys(spec.sortBy));
      checkPartition(
        stage,
        docs,
        spec.partitionBy ?? partitionFields(spec.partitionByFields),
        options,
      );
    }
    return mingoStage(Lazy(docs), spec, options);
  };
}

function windowFields(mingoStage: Stage): Stage {
  return (collection, spec, options) => {
    if (!isPlainObject(spec))
      fail(FAILED_TO_PARSE, 'the $setWindowFields stage specification must be an object');
    if (isPlainObject(spec.output))
      for (const [field, out] of Object.entries(spec.output)) {
        const op = isPlainObject(out) ? Object.keys(out).find((k) => k !== 'window') : undefined;
        if (op === undefined || !WINDOW_FUNCTIONS.has(op))
          fail(
            FAILED_TO_PARSE,
            `Unrecognized window function, ${op ?? `in the output field ${field}`}`,
          );
      }
    const docs = collection.value() as Doc[];
    if (isPlainObject(spec.sortBy))
      checkOrdering('$setWindowFields', docs, Object.keys(spec.sortBy));
    checkPartition('$setWindowFields', docs, spec.partitionBy, options);
    return mingoStage(Lazy(docs), spec, options);
  };
}

function bucketAuto(mingoStage: Stage): Stage {
  return (collection, spec, options) => {
    if (!isPlainObject(spec))
      fail(
        40240,
        `The argument to $bucketAuto must be an object, but found type: ${typeName(spec)}.`,
      );
    const docs = collection.value() as Doc[];
    const values = docs.map((d) =>
      computeValue(d, spec.groupBy, null, ComputeOptions.init(options).update(d)),
    );
    if (!oneKind(values, false))
      notImplemented(
        '$bucketAuto grouping null, missing, Decimal128, Longs beyond 2^53, documents, arrays or values of several types',
      );
    // MongoDB writes each bucket's _id first.
    return mingoStage(Lazy(docs), spec, options).map((bucket) => {
      const { _id, ...rest } = bucket as Doc;
      return { _id, ...rest };
    });
  };
}

/**
 * The engine's stages that read their documents without changing them ($facet gives each of its
 * pipelines documents of their own, see below).
 */
const READ_ONLY_STAGES = new Set([
  '$facet',
  '$match',
  '$group',
  '$sort',
  '$count',
  '$limit',
  '$skip',
  '$sortByCount',
  '$bucket',
]);

/**
 * Whether a stage reads its documents without changing them: one of the above, or mingo's
 * `$unwind` of a path alone, which makes each document it gives anew (a shallow copy with the
 * element in place of the array) and passes on any other as it is. With `includeArrayIndex` or
 * `preserveNullAndEmptyArrays` it writes into the documents it reads.
 */
export function readsOnly(stage: unknown): boolean {
  if (!isPlainObject(stage)) return false;
  const name = Object.keys(stage)[0]!;
  if (name !== '$unwind') return READ_ONLY_STAGES.has(name);
  const spec = stage.$unwind;
  return (
    typeof spec === 'string' ||
    (isPlainObject(spec) && Object.keys(spec).every((k) => k === 'path'))
  );
}

/**
 * $facet: each pipeline over the same documents, each with documents of its own. A pipeline's
 * leading stages that only read (a `$match`, a `$group`, an `$unwind`) read them as they are, and
 * what they give is copied for the rest, so only what they keep is copied rather than every
 * document.
 */
const $facet = (collection: Iterator, spec: unknown, options: Options): Iterator =>
  collection.transform((docs) => {
    const out: Doc = {};
    const opts = { ...options, processingMode: ProcessingMode.CLONE_OFF };
    for (const [name, pipeline] of Object.entries(spec as Doc)) {
      const stages = pipeline as Doc[];
      let reading = 0;
      while (reading < stages.length && readsOnly(stages[reading])) reading++;
      const read = reading
        ? (new Aggregator(stages.slice(0, reading), opts).run(docs) as Doc[])
        : docs;
      const copies = read.map(cloneDoc);
      out[name] =
        reading < stages.length ? new Aggregator(stages.slice(reading), opts).run(copies) : copies;
    }
    return [out];
  });

/** Whether mingo's $unwind drops a value that is not an array (as its `isEmpty` says). */
const unwindsToNothing = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isPlainObject(v) && Object.keys(v).length === 0);

/**
 * `$unwind` of a path alone, giving what mingo's gives without its general path machinery: for
 * each element of the array at the path, a shallow copy of the document (and of each embedded
 * document on the way) with the element in place of the array; a value that is not an array as
 * the document itself, unless it is empty (null, missing, '', [] or {}). A document whose path
 * crosses an array or another value before its end, and every other form of the stage, are
 * mingo's.
 */
function unwindPath(unwind: Stage): Stage {
  return (collection, spec, options) => {
    const path = typeof spec === 'string' ? spec : isPlainObject(spec) ? spec.path : undefined;
    const alone =
      typeof spec === 'string' || (isPlainObject(spec) && Object.keys(spec).length === 1);
    if (!alone || typeof path !== 'string' || !path.startsWith('$') || path.length < 2)
      return unwind(collection, spec, options);
    const parts = path.slice(1).split('.');
    return collection.transform((docs) => {
      const out: unknown[] = [];
      for (const doc of docs as Doc[]) {
        const chain: Doc[] = [doc];
        let value: unknown = doc;
        let crossed = false;
        for (let i = 0; i < parts.length; i++) {
          if (i > 0) {
            if (value === null || value === undefined) break;
            if (!isPlainObject(value)) {
              crossed = true;
              break;
            }
            chain.push(value);
          }
          value = fieldOf(value as Doc, parts[i]!);
        }
        if (crossed) {
          out.push(...(unwind(Lazy([doc]), spec, options).value() as unknown[]));
          continue;
        }
        if (chain.length < parts.length) continue;
        if (!Array.isArray(value)) {
          if (!unwindsToNothing(value)) out.push(doc);
          continue;
        }
        for (const item of value) {
          const top = { ...doc };
          let copy = top;
          for (let i = 1; i < parts.length; i++) {
            const inner = { ...chain[i]! };
            setField(copy, parts[i - 1]!, inner);
            copy = inner;
          }
          setField(copy, parts[parts.length - 1]!, item);
          out.push(top);
        }
      }
      return out;
    });
  };
}

/** The stages above; $graphLookup's restrictSearchWithMatch compiles with `compile`. */
export function groupingStages(compile: FilterCompiler) {
  const mingo = pipelineOperators as unknown as Record<string, Stage>;
  return {
    $unwind: unwindPath(mingo.$unwind!),
    $setWindowFields: windowFields(mingo.$setWindowFields!),
    $bucketAuto: bucketAuto(mingo.$bucketAuto!),
    $densify: ordered('$densify', mingo.$densify!),
    $fill: ordered('$fill', mingo.$fill!),
    $group,
    $facet,
    $count,
    $bucket,
    $sortByCount,
    $lookup,
    $graphLookup: graphLookup(compile),
  };
}
